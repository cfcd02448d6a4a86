/** Spec 5: password strength is advisory only; it never blocks a registration. */
export interface PasswordStrength {
  percent: number;
  label: 'Enter a password' | 'Weak' | 'Fair' | 'Strong';
  checks: Array<{ label: string; met: boolean }>;
}

export function passwordStrength(password: string): PasswordStrength {
  const hasUpper = /[A-Z]/.test(password);
  const hasLower = /[a-z]/.test(password);
  const hasDigit = /\d/.test(password);
  const hasSpecial = /[^A-Za-z0-9]/.test(password);
  const points = [password.length >= 8, password.length >= 12, hasUpper, hasLower, hasDigit, hasSpecial].filter(Boolean).length;
  const percent = Math.min(100, Math.floor(points * 16.67));
  const label = percent === 0 ? 'Enter a password' : percent < 40 ? 'Weak' : percent < 70 ? 'Fair' : 'Strong';
  return {
    percent,
    label,
    checks: [
      { label: '8+ characters', met: password.length >= 8 },
      { label: 'Uppercase letter', met: hasUpper },
      { label: 'Lowercase letter', met: hasLower },
      { label: 'Number', met: hasDigit },
      { label: 'Special character', met: hasSpecial },
    ],
  };
}

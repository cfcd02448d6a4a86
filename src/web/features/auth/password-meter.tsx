import { Check, X } from 'lucide-react';
import { passwordStrength } from './password-strength';

const barColour = { 'Enter a password': 'bg-ink-500/20', Weak: 'bg-danger-600', Fair: 'bg-mango-500', Strong: 'bg-leaf-700' } as const;

/** Spec 5: a live meter and checklist; advisory only. */
export function PasswordMeter({ password }: { password: string }) {
  const strength = passwordStrength(password);
  return (
    <div className="grid gap-2" aria-live="polite">
      <div className="flex items-center justify-between text-sm">
        <span className="text-ink-500">Password strength</span>
        <span className="font-semibold">{strength.label}</span>
      </div>
      <div className="h-2 overflow-hidden rounded-full bg-ink-500/15" role="progressbar" aria-label="Password strength" aria-valuemin={0} aria-valuemax={100} aria-valuenow={strength.percent}>
        <div className={`h-full rounded-full transition-all ${barColour[strength.label]}`} style={{ width: `${strength.percent}%` }} />
      </div>
      <ul className="grid grid-cols-2 gap-1 text-sm">
        {strength.checks.map((check) => (
          <li key={check.label} className={`flex items-center gap-1.5 ${check.met ? 'text-leaf-700' : 'text-ink-500'}`}>
            {check.met ? <Check className="size-4" aria-hidden="true" /> : <X className="size-4" aria-hidden="true" />}
            {check.label}
            <span className="sr-only">{check.met ? '(done)' : '(not yet)'}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Spec 5: a simple x@y.z pattern (`^[^\s@]+@[^\s@]+\.[^\s@]+$`), written so that each character
 * is tried once: the domain's first character, the rest up to its first dot, then the rest. The
 * spec's spelling tried every dot against the rest of the text, seconds for a long run of dots.
 */
export const emailPattern = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

/**
 * Spec 5's e-mail rules without a schema library, for screens that must stay light (the home
 * page's newsletter box): at least 5 characters, at most 254, and the pattern, once trimmed.
 */
export function isEmailAddress(text: string): boolean {
  const email = text.trim();
  return email.length >= 5 && email.length <= 254 && emailPattern.test(email);
}

/** E-mail addresses are compared trimmed and lower-cased. */
export function normaliseEmail(text: string): string {
  return text.trim().toLowerCase();
}

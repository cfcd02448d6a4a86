import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only hashes of session ids and reset tokens are stored, so a database leak opens no account. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

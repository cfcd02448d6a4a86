import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { withoutQueryValues } from './logger';

describe('logged errors', () => {
  it('leave out the values of a failed query, in the message and the stack, and keep the rest', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), { params: ['kiri@example.nz', '$argon2id$v=19$secret'], code: '23505' });
    const error = new DrizzleQueryError('insert into "users" ("email", "password_hash") values ($1, $2)', ['kiri@example.nz', '$argon2id$v=19$secret'], cause);
    const written = JSON.stringify(withoutQueryValues(error));
    expect(written).not.toContain('kiri@example.nz');
    expect(written).not.toContain('argon2id');
    expect(written).toContain('insert into \\"users\\"');
    expect(written).toContain('params: [not logged]');
    expect(written).toContain('duplicate key value');
    const direct = withoutQueryValues(cause) as Record<string, unknown>;
    expect(direct.params).toBeUndefined();
    expect(direct.code).toBe('23505');
  });

  it('pass on what is not an error object as it is', () => {
    expect(withoutQueryValues(null)).toBeNull();
    expect(withoutQueryValues('boom')).toBe('boom');
  });
});

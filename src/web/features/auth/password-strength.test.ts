import { describe, expect, it } from 'vitest';
import { passwordStrength } from './password-strength';

describe('password strength (spec 5)', () => {
  it.each([
    ['', 0, 'Enter a password'],
    ['abc', 16, 'Weak'],
    ['abcdefgh', 33, 'Weak'],
    ['abcdefG1', 66, 'Fair'],
    ['abcdeFG1!', 83, 'Strong'],
    ['abcdefGH12!?', 100, 'Strong'],
  ])('scores %j at %i%% (%s)', (password, percent, label) => {
    const strength = passwordStrength(password);
    expect(strength.percent).toBe(percent);
    expect(strength.label).toBe(label);
  });

  it('never goes above 100%', () => {
    expect(passwordStrength('Aa1!Aa1!Aa1!Aa1!').percent).toBe(100);
  });

  it('ticks the checklist item by item', () => {
    const checks = passwordStrength('mango').checks;
    expect(checks.map((c) => [c.label, c.met])).toEqual([
      ['8+ characters', false],
      ['Uppercase letter', false],
      ['Lowercase letter', true],
      ['Number', false],
      ['Special character', false],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { cutDescription, formatRating } from './card-text';

describe('product card text (spec 2)', () => {
  it('cuts a description longer than 70 characters and adds an ellipsis', () => {
    const text = 'Known in India as Hapus, these Alphonsos come from family orchards around Ratnagiri.';
    expect(cutDescription(text)).toBe(`${text.slice(0, 70).trimEnd()}...`);
    expect(cutDescription(text).length).toBeLessThanOrEqual(73);
  });
  it('leaves a description of 70 characters or fewer alone', () => {
    const text = 'x'.repeat(70);
    expect(cutDescription(text)).toBe(text);
  });
  it('shows ratings to one decimal', () => {
    expect(formatRating(5)).toBe('5.0');
    expect(formatRating(4.85)).toBe('4.8');
  });
});

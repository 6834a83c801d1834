import { describe, expect, it } from 'vitest';
import { generateCode, normaliseCode } from '../../src/auth/manage-codes.js';

describe('Manage with AI code format', () => {
  it('makes 8 characters of unambiguous uppercase letters and digits by default', () => {
    const codes = Array.from({ length: 500 }, () => generateCode(8));
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    const all = codes.join('');
    for (const ambiguous of ['0', 'O', '1', 'I', 'L']) expect(all).not.toContain(ambiguous);
    expect(all).toMatch(/\d/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('makes 6 letters only in the 6-character variant', () => {
    for (let i = 0; i < 500; i++) expect(generateCode(6)).toMatch(/^[A-HJKMNP-Z]{6}$/);
  });

  it('normalises what people type: case, spaces and dashes', () => {
    expect(normaliseCode('abcd-efgh')).toBe('ABCDEFGH');
    expect(normaliseCode(' ab cd - ef gh ')).toBe('ABCDEFGH');
    expect(normaliseCode('ABCDEF')).toBe('ABCDEF');
  });
});

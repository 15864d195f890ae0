import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generatePassword,
  hashPassword,
  needsRehash,
  passwordProblems,
  validatePassword,
  verifyPassword,
} from './password.js';

/** The first stored format, as core wrote it before the PHC strings. */
const legacyHash = (password: string): string => {
  const salt = randomBytes(16).toString('hex');
  return `scrypt$${salt}$${scryptSync(password, salt, 32).toString('hex')}`;
};

const FAST = { ln: 10, r: 8, p: 1 };

describe('password hashing', () => {
  it('hashes with a fresh salt and the parameters in the string, and verifies', async () => {
    const a = await hashPassword('Correct-Horse-1');
    const b = await hashPassword('Correct-Horse-1');
    expect(a).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('Correct-Horse-1', a)).toBe(true);
    expect(await verifyPassword('correct-horse-1', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('verifies hashes made with other parameters, and says when they should be replaced', async () => {
    const weak = await hashPassword('Correct-Horse-1', FAST);
    expect(weak.startsWith('$scrypt$ln=10,')).toBe(true);
    expect(await verifyPassword('Correct-Horse-1', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('x'))).toBe(false);
  });

  it('still reads the first format (scrypt$<salt hex>$<key hex>)', async () => {
    const old = legacyHash('correct horse battery');
    expect(await verifyPassword('correct horse battery', old)).toBe(true);
    expect(await verifyPassword('wrong horse battery', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
  });

  it('treats unknown or tampered strings as no match', async () => {
    for (const stored of ['', 'plain', '$2b$10$abcdefghijklmnopqrstuv', '$scrypt$ln=40,r=8,p=1$AAAA$AAAA']) {
      expect(await verifyPassword('anything', stored)).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });
});

describe('password rules (the reference: OWASP defaults)', () => {
  it('accepts a mixed password of 10+ characters and a long passphrase', () => {
    expect(passwordProblems('Abcdefgh1!')).toEqual([]);
    expect(passwordProblems('correct horse battery staple')).toEqual([]);
    expect(validatePassword('Abcdefgh1!')).toBe('Abcdefgh1!');
  });

  it('names every broken rule', () => {
    expect(passwordProblems('Ab1!')).toEqual(['must be at least 10 characters long']);
    expect(passwordProblems('abcdefghij')).toEqual([
      'must contain at least one upper-case letter',
      'must contain at least one number',
      'must contain at least one special character',
    ]);
    expect(passwordProblems('Abcdefff1!')).toEqual([
      'may not contain a character three or more times in a row',
    ]);
    expect(passwordProblems(`A1!${'ab'.repeat(70)}`)).toEqual(['must be at most 128 characters long']);
  });

  it('throws VALIDATION naming the property', () => {
    expect(() => validatePassword('short', 'newPassword')).toThrowError(
      expect.objectContaining({
        code: 'VALIDATION',
        details: expect.objectContaining({ path: 'newPassword' }),
      }),
    );
    expect(() => validatePassword(undefined)).toThrowError(/"password" is required/);
    expect(() => validatePassword('abcdefghij')).toThrowError(
      /"password" must contain at least one upper-case letter;/,
    );
  });

  it('generates passwords that meet the rules', () => {
    for (let i = 0; i < 50; i++) expect(passwordProblems(generatePassword())).toEqual([]);
  });
});

import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { FlagstaffError } from '../errors.js';

/**
 * Password hashing and the password rules.
 *
 * Hashes are PHC-style strings that carry their own parameters, so the cost can rise later without
 * breaking stored hashes: `$scrypt$ln=15,r=8,p=1$<salt b64>$<key b64>` (unpadded base64). The first
 * format, `scrypt$<salt hex>$<key hex>` (the hex text itself as salt, N=2^14, r=8, p=1, 32-byte key),
 * is still verified; `needsRehash` tells a caller to replace it after a successful login.
 */

export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  r: number;
  p: number;
}

/** What new hashes use: N=2^15, r=8 (32 MiB, ~50–100 ms on a server core). */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ ln: 15, r: 8, p: 1 });

const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Refuse stored parameters that would exhaust memory or time (a tampered or foreign hash). */
const MAX_LN = 20;

function derive(password: string, salt: Buffer, params: ScryptParams, keyBytes: number): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** params.ln,
    r: params.r,
    p: params.p,
    // Node's default cap (32 MiB) is exactly 128·N·r at ln=15, r=8; leave headroom.
    maxmem: 256 * 2 ** params.ln * params.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

/** Hashes a password with scrypt and a fresh random salt. */
export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
  legacy: boolean;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const LEGACY = /^scrypt\$([0-9a-f]+)\$([0-9a-f]{64})$/;

function parseHash(stored: string): ParsedHash | null {
  const phc = PHC.exec(stored);
  if (phc) {
    const params = { ln: Number(phc[1]), r: Number(phc[2]), p: Number(phc[3]) };
    if (params.ln < 1 || params.ln > MAX_LN || params.r < 1 || params.p < 1) return null;
    return {
      params,
      salt: Buffer.from(phc[4]!, 'base64'),
      key: Buffer.from(phc[5]!, 'base64'),
      legacy: false,
    };
  }
  const legacy = LEGACY.exec(stored);
  if (legacy)
    return {
      params: { ln: 14, r: 8, p: 1 },
      salt: Buffer.from(legacy[1]!, 'utf8'),
      key: Buffer.from(legacy[2]!, 'hex'),
      legacy: true,
    };
  return null;
}

/** Whether the password matches the stored hash (compared in constant time); false for unknown formats. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.key.length < 16) return false;
  // The first format hashed the password as given; later ones normalise it to NFC first.
  const input = parsed.legacy ? password : password.normalize('NFC');
  const key = await derive(input, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash should be replaced (older format or weaker parameters) once the password is known. */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const parsed = parseHash(stored);
  if (!parsed || parsed.legacy) return true;
  return parsed.params.ln < params.ln || parsed.params.r < params.r || parsed.params.p < params.p;
}

/** A hash of a random password, verified against when a user is unknown so the answer takes as long. */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
};

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
/** From this length a password counts as a passphrase and needs no mix of character classes. */
export const PASSPHRASE_MIN_LENGTH = 20;

/**
 * The problems with a password under the reference's rules (its `validatePassword` runs
 * owasp-password-strength-test with the defaults): 10 to 128 characters, no character three or more
 * times in a row, and — unless it is a passphrase of 20 or more characters — a lower-case letter, an
 * upper-case letter, a digit and a special character. Empty when the password is acceptable.
 */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) problems.push(`must be at least ${PASSWORD_MIN_LENGTH} characters long`);
  if (length > PASSWORD_MAX_LENGTH) problems.push(`must be at most ${PASSWORD_MAX_LENGTH} characters long`);
  if (/(.)\1{2,}/u.test(password)) problems.push('may not contain a character three or more times in a row');
  if (problems.length > 0 || length >= PASSPHRASE_MIN_LENGTH) return problems;
  if (!/\p{Ll}/u.test(password)) problems.push('must contain at least one lower-case letter');
  if (!/\p{Lu}/u.test(password)) problems.push('must contain at least one upper-case letter');
  if (!/\d/.test(password)) problems.push('must contain at least one number');
  if (!/[^\p{L}\p{N}\s]/u.test(password)) problems.push('must contain at least one special character');
  return problems;
}

/**
 * The one password rule of Flagstaff (signup, change, reset, bootstrap): throws VALIDATION naming
 * `path` and every rule the password breaks.
 */
export function validatePassword(password: unknown, path = 'password'): string {
  if (typeof password !== 'string' || password.length === 0)
    throw new FlagstaffError('VALIDATION', `"${path}" is required.`, { path });
  const problems = passwordProblems(password);
  if (problems.length > 0)
    throw new FlagstaffError('VALIDATION', `"${path}" ${problems.join('; ')}.`, { path, problems });
  return password;
}

/** A random password that meets the rules (24 characters of base64url, a passphrase by length). */
export function generatePassword(): string {
  for (;;) {
    const candidate = randomBytes(18).toString('base64url');
    if (passwordProblems(candidate).length === 0) return candidate;
  }
}

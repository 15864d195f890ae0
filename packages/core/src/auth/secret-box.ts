import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Seals short secrets (API token secrets) with AES-256-GCM under a server key, so a database dump
 * alone does not reveal them. The key is SHA-256 of the configured key string (give it 32+ random
 * bytes, e.g. `openssl rand -hex 32`). Sealed form: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export function createSecretBox(secretKey: string) {
  if (secretKey.length < 16)
    throw new Error(
      'The secret key must be at least 16 characters (use 32 random bytes, e.g. `openssl rand -hex 32`).',
    );
  const key = createHash('sha256').update(secretKey, 'utf8').digest();
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    /** The plain secret, or null when the text was sealed under another key or is damaged. */
    open(sealed: string): string | null {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        return null;
      }
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;

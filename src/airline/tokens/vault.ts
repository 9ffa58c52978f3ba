/**
 * Encrypts card numbers at rest with AES-256-GCM. The key comes from
 * AIRLINE_VAULT_KEY (see airline.config.ts); each value gets a fresh 12-byte
 * IV. Stored form: base64 of iv | tag | ciphertext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export class CardVault {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('vault key must be 32 bytes');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

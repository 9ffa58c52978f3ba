/**
 * AES-256-GCM payload codec: every payload the worker and the clients write to Temporal
 * (workflow arguments such as the intent with its card, activity inputs and results, signals,
 * query results, memos) is encrypted before it leaves the process, so card data never appears
 * in clear in histories. Search attributes are not payloads of this kind and stay readable.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';

/** `encoding` metadata of an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** Metadata key naming the key a payload was encrypted with (first 16 hex digits of its SHA-256). */
export const KEY_ID_METADATA = 'encryption-key-id';
/** Passphrase the development key is derived from; the key is refused when NODE_ENV=production. */
export const DEV_PAYLOAD_KEY_PASSPHRASE = 'ndc-saga-development-payload-key';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** The development key: SHA-256 of {@link DEV_PAYLOAD_KEY_PASSPHRASE}. */
export function developmentPayloadKey(): Buffer {
  return createHash('sha256').update(DEV_PAYLOAD_KEY_PASSPHRASE).digest();
}

/**
 * The payload key from PAYLOAD_ENCRYPTION_KEY (base64 of 32 bytes). Without it the documented
 * development key is used, which is refused when NODE_ENV=production.
 */
export function loadPayloadKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  const value = env.PAYLOAD_ENCRYPTION_KEY?.trim();
  if (value === undefined || value === '') {
    if (env.NODE_ENV === 'production') {
      throw new Error('PAYLOAD_ENCRYPTION_KEY: must be set when NODE_ENV=production (base64 of 32 random bytes)');
    }
    return developmentPayloadKey();
  }
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== value.replace(/=+$/, '')) {
    throw new Error(
      'PAYLOAD_ENCRYPTION_KEY: must be the base64 encoding of exactly 32 bytes (openssl rand -base64 32)',
    );
  }
  if (env.NODE_ENV === 'production' && key.equals(developmentPayloadKey())) {
    throw new Error('PAYLOAD_ENCRYPTION_KEY: the development key is refused when NODE_ENV=production');
  }
  return key;
}

/** Serialises a payload (metadata + data) to bytes: JSON with base64 fields. */
function payloadToBytes(payload: Payload): Uint8Array {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload.metadata ?? {})) {
    if (value !== null && value !== undefined) metadata[name] = Buffer.from(value).toString('base64');
  }
  const data = payload.data !== null && payload.data !== undefined ? Buffer.from(payload.data).toString('base64') : '';
  return textEncoder.encode(JSON.stringify({ m: metadata, d: data }));
}

function payloadFromBytes(bytes: Uint8Array): Payload {
  const parsed = JSON.parse(textDecoder.decode(bytes)) as { m: Record<string, string>; d: string };
  const metadata: Record<string, Uint8Array> = {};
  for (const [name, value] of Object.entries(parsed.m)) metadata[name] = new Uint8Array(Buffer.from(value, 'base64'));
  return { metadata, data: new Uint8Array(Buffer.from(parsed.d, 'base64')) };
}

/** Encrypts payloads with AES-256-GCM (random 96-bit IV per payload, 128-bit tag). */
export class EncryptionCodec implements PayloadCodec {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('EncryptionCodec needs a 32-byte key');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 16);
    this.encode = this.encode.bind(this);
    this.decode = this.decode.bind(this);
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', this.key, iv);
      const sealed = Buffer.concat([iv, cipher.update(payloadToBytes(payload)), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          encoding: textEncoder.encode(ENCRYPTED_ENCODING),
          [KEY_ID_METADATA]: textEncoder.encode(this.keyId),
        },
        data: new Uint8Array(sealed),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const encoding = payload.metadata?.encoding;
      if (encoding === undefined || encoding === null || textDecoder.decode(encoding) !== ENCRYPTED_ENCODING) {
        return payload;
      }
      const keyIdBytes = payload.metadata?.[KEY_ID_METADATA];
      const keyId = keyIdBytes !== undefined && keyIdBytes !== null ? textDecoder.decode(keyIdBytes) : '';
      if (keyId !== this.keyId) {
        throw new Error(
          `payload encrypted with key ${keyId}, this process has key ${this.keyId} (check PAYLOAD_ENCRYPTION_KEY)`,
        );
      }
      const sealed = Buffer.from(payload.data ?? new Uint8Array());
      if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('encrypted payload too short');
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const clear = Buffer.concat([
        decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return payloadFromBytes(clear);
    });
  }
}

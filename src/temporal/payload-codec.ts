/**
 * AES-256-GCM payload codec: every payload the worker and the clients write to Temporal
 * (workflow arguments such as the intent with its card, activity inputs and results, signals,
 * query results, memos) is encrypted before it leaves the process, so card data never appears
 * in clear in histories. Search attributes are not payloads of this kind and stay readable. Inside
 * the encryption a payload is framed in binary and compressed when that makes it smaller (histories
 * of bookings open for months stay small); payloads written before that still decode.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
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

/**
 * How the clear bytes inside the encryption frame a payload: its first byte. `RAW` and `DEFLATED`
 * are {@link packPayload}'s binary form, as is or compressed (raw DEFLATE) when that is smaller;
 * payloads written before them are JSON with base64 fields (first byte `{`) and still read.
 */
const FRAME = { RAW: 1, DEFLATED: 2, LEGACY_JSON: 0x7b } as const;
/** Payloads shorter than this are not worth compressing. */
const DEFLATE_FROM_BYTES = 128;
/** What a compressed payload may inflate to (Temporal refuses payloads of 2 MB and more). */
const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;

/** A payload (metadata + data) as the clear bytes to encrypt: framed, compressed when smaller. */
function payloadToBytes(payload: Payload): Buffer {
  const packed = packPayload(payload);
  if (packed.length >= DEFLATE_FROM_BYTES) {
    const deflated = deflateRawSync(packed);
    if (deflated.length < packed.length) return Buffer.concat([Buffer.of(FRAME.DEFLATED), deflated]);
  }
  return Buffer.concat([Buffer.of(FRAME.RAW), packed]);
}

function payloadFromBytes(bytes: Buffer): Payload {
  switch (bytes[0]) {
    case FRAME.RAW:
      return unpackPayload(bytes.subarray(1));
    case FRAME.DEFLATED:
      return unpackPayload(inflate(bytes.subarray(1)));
    case FRAME.LEGACY_JSON:
      return legacyPayload(bytes);
    default:
      throw new Error(`encrypted payload of an unknown frame ${bytes[0]}`);
  }
}

function inflate(bytes: Buffer): Buffer {
  try {
    return inflateRawSync(bytes, { maxOutputLength: MAX_PAYLOAD_BYTES });
  } catch (error) {
    throw new Error('encrypted payload does not inflate (corrupt, or larger than 4 MiB)', { cause: error });
  }
}

/** Metadata entries (count: 1 byte; each: name length 2 bytes, name, value length 4 bytes, value), then the data. */
function packPayload(payload: Payload): Buffer {
  const entries = Object.entries(payload.metadata ?? {}).filter(
    (entry): entry is [string, Uint8Array] => entry[1] !== null && entry[1] !== undefined,
  );
  if (entries.length > 255) throw new Error('payload with more than 255 metadata entries');
  const parts: Buffer[] = [Buffer.of(entries.length)];
  for (const [name, value] of entries) {
    const key = Buffer.from(name, 'utf8');
    const lengths = Buffer.alloc(6);
    lengths.writeUInt16BE(key.length, 0);
    lengths.writeUInt32BE(value.length, 2);
    parts.push(lengths.subarray(0, 2), key, lengths.subarray(2), Buffer.from(value));
  }
  parts.push(Buffer.from(payload.data ?? new Uint8Array()));
  return Buffer.concat(parts);
}

function unpackPayload(bytes: Buffer): Payload {
  const metadata: Record<string, Uint8Array> = {};
  let at = 1;
  const take = (length: number): Buffer => {
    if (at + length > bytes.length) throw new Error('encrypted payload cut short');
    at += length;
    return bytes.subarray(at - length, at);
  };
  for (let n = bytes[0] ?? 0; n > 0; n -= 1) {
    const name = take(take(2).readUInt16BE(0)).toString('utf8');
    metadata[name] = new Uint8Array(take(take(4).readUInt32BE(0)));
  }
  return { metadata, data: new Uint8Array(bytes.subarray(at)) };
}

/** A payload written before the binary frames: JSON with base64 metadata and data. */
function legacyPayload(bytes: Uint8Array): Payload {
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

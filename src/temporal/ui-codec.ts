/**
 * Remote codec for the Temporal Web UI / CLI (`--codec-endpoint`): decrypts payloads so staff can
 * read them, then masks card data, which must stay unreadable even for them.
 *
 * Masking: under any `card` object, `number` becomes `****<last 4>` and `verificationCode` becomes
 * `***`; any other `verificationCode` property is replaced too, and so is every `cavv` (a 3-D Secure
 * authentication value); any string of 13-19 digits passing the Luhn check is masked wherever it appears.
 */
import type { Payload } from '@temporalio/common';
import { luhnValid } from '../common/luhn';
import { EncryptionCodec, loadPayloadKey } from './payload-codec';

/** A payload as the remote codec protocol sends it: base64 metadata values and data. */
export interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** True for 13-19 digit strings that pass the Luhn check (i.e. plausible card numbers). */
export function looksLikeCardNumber(value: string): boolean {
  return /^\d{13,19}$/.test(value) && luhnValid(value);
}

/** `****1111` for a card number. */
export function maskCardNumber(value: string): string {
  return `****${value.slice(-4)}`;
}

/** Returns a copy of `value` with card data masked (see the module comment). */
export function maskCardData(value: unknown, underCard = false): unknown {
  if (typeof value === 'string') return looksLikeCardNumber(value) ? maskCardNumber(value) : value;
  if (Array.isArray(value)) return value.map((item) => maskCardData(item));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
    if (name === 'verificationCode' || name === 'cavv') copy[name] = '***';
    else if (underCard && name === 'number' && typeof inner === 'string') copy[name] = maskCardNumber(inner);
    else copy[name] = maskCardData(inner, name === 'card');
  }
  return copy;
}

function encodingOf(payload: Payload): string | undefined {
  const encoding = payload.metadata?.encoding;
  return encoding === undefined || encoding === null ? undefined : textDecoder.decode(encoding);
}

/**
 * Decrypts `payloads` and masks card data in the JSON ones. Non-JSON payloads (binary/null,
 * protobuf) are returned decrypted as they are. Uses the key from PAYLOAD_ENCRYPTION_KEY unless
 * a codec is given.
 */
export async function decodePayloadsForUi(
  payloads: Payload[],
  codec: EncryptionCodec = new EncryptionCodec(loadPayloadKey()),
): Promise<Payload[]> {
  const decoded = await codec.decode(payloads);
  return decoded.map((payload) => {
    if (encodingOf(payload) !== 'json/plain' || payload.data === undefined || payload.data === null) return payload;
    const masked = maskCardData(JSON.parse(textDecoder.decode(payload.data)));
    return { ...payload, data: textEncoder.encode(JSON.stringify(masked)) };
  });
}

/**
 * The remote codec `/decode` endpoint body in, body out: `{payloads: JsonPayload[]}`. Never
 * offer `/encode` with the real key to the UI: staff must not be able to forge payloads.
 */
export async function decodeRemoteCodecBody(
  body: { payloads: JsonPayload[] },
  codec?: EncryptionCodec,
): Promise<{ payloads: JsonPayload[] }> {
  const payloads: Payload[] = body.payloads.map((json) => ({
    metadata: Object.fromEntries(
      Object.entries(json.metadata ?? {}).map(([name, value]) => [name, new Uint8Array(Buffer.from(value, 'base64'))]),
    ),
    data: new Uint8Array(Buffer.from(json.data ?? '', 'base64')),
  }));
  const decoded = await decodePayloadsForUi(payloads, codec);
  return {
    payloads: decoded.map((payload) => ({
      metadata: Object.fromEntries(
        Object.entries(payload.metadata ?? {}).map(([name, value]) => [
          name,
          Buffer.from(value ?? new Uint8Array()).toString('base64'),
        ]),
      ),
      data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
    })),
  };
}

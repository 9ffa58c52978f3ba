/**
 * What the two intakes (`POST /bookings`, `POST /batches`) share: the Idempotency-Key, the
 * fingerprint of a request kept in the workflow memo to refuse a reused key, and the longest
 * workflow id.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ApiError } from './api-error';

/** Memo key holding the fingerprint of the submitted request (idempotency check). */
export const FINGERPRINT_MEMO = 'requestFingerprint';

/**
 * Longest workflow id: the workflow id is the default NDC CorrelationID, which the 17.2 schema
 * limits to 64 characters.
 */
export const MAX_WORKFLOW_ID = 64;

/** Idempotency keys: 1 to 100 characters of A-Z a-z 0-9 _ . : - */
export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Checks an Idempotency-Key header; returns a fresh key when none was sent. */
export function idempotencyKey(header: string | undefined): string {
  if (header === undefined || header === '') return randomUUID();
  if (!IDEMPOTENCY_KEY_RE.test(header)) {
    throw new ApiError('INVALID_REQUEST', 'Invalid Idempotency-Key header', {
      fields: [{ path: 'Idempotency-Key', message: 'must be 1 to 100 characters of A-Z a-z 0-9 _ . : -' }],
    });
  }
  return header;
}

/**
 * A fingerprint of a request body for the idempotency check. Card number and CVV are left out
 * (only the last four digits count), so the fingerprint stored in the workflow memo reveals
 * nothing about the card.
 */
export function fingerprint(value: unknown): string {
  const redact = (v: unknown, key?: string): unknown => {
    if (key === 'number' && typeof v === 'string' && /^\d{12,19}$/.test(v)) return `****${v.slice(-4)}`;
    if (key === 'verificationCode' || key === 'cavv') return undefined;
    if (Array.isArray(v)) return v.map((x) => redact(x));
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .map((k) => [k, redact((v as Record<string, unknown>)[k], k)])
          .filter(([, x]) => x !== undefined),
      );
    }
    return v;
  };
  return createHash('sha256')
    .update(JSON.stringify(redact(value)))
    .digest('hex');
}

/** The key of workflow `id` was used before for a different request. */
export function keyReused(id: string): ApiError {
  return new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request', {
    details: { id },
  });
}

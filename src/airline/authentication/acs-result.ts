/**
 * The simulated issuer's signed authentication result (what 3-D Secure calls the PARes): the
 * transaction it belongs to (`SPM_TxnReference` and `OriginalTransactionID`), the outcome and an
 * expiry, under an HMAC-SHA256 of the airline. A result cannot be forged (no key), altered (the
 * MAC covers every field) or moved to another transaction (the ids are inside the MAC, and the
 * airline compares them with the CustomerInputRS and its stored hold). Form:
 * `v1.<spm ref>.<original transaction id, base64url>.<Y|N>.<expiry ms>.<mac base64url>`.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** `Y`: authenticated; `N`: not (declined, cancelled, or failed at the issuer). */
export type AcsStatus = 'Y' | 'N';

export interface AcsResult {
  spmRef: string;
  originalTransactionId: string;
  status: AcsStatus;
  /** Epoch milliseconds after which the result is refused. */
  expiresAtMs: number;
}

const VERSION = 'v1';

export class AcsResultSigner {
  private readonly key: Buffer;

  /** `secret`: the airline's vault key; the MAC key is derived from it (HKDF, its own label). */
  constructor(secret: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'ndc-saga airline 3-D Secure result', 32));
  }

  sign(r: AcsResult): string {
    const body = [
      VERSION,
      r.spmRef,
      Buffer.from(r.originalTransactionId).toString('base64url'),
      r.status,
      String(r.expiresAtMs),
    ].join('.');
    return `${body}.${this.mac(body)}`;
  }

  /** The result `paRes` carries when the airline signed it unchanged; else undefined. */
  verify(paRes: string): AcsResult | undefined {
    const parts = paRes.split('.');
    if (parts.length !== 6 || parts[0] !== VERSION) return undefined;
    const [, spmRef, otid, status, exp, mac] = parts;
    const expected = Buffer.from(this.mac(parts.slice(0, 5).join('.')));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    if ((status !== 'Y' && status !== 'N') || !/^\d+$/.test(exp)) return undefined;
    return {
      spmRef,
      originalTransactionId: Buffer.from(otid, 'base64url').toString('utf8'),
      status,
      expiresAtMs: Number(exp),
    };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

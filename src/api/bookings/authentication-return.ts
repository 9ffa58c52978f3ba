/**
 * Where the cardholder's browser comes back after 3-D Secure (docs/api.md, "3-D Secure"): the
 * TermURL and FailURL sent to the airline are this API's
 * `/bookings/{id}/authentication/return?token=<t>&result=approved|declined`.
 *
 * The token is derived, not stored: HMAC-SHA256 of the booking id under a key derived (HKDF) from
 * the API's PAYLOAD_ENCRYPTION_KEY, so every API instance checks it without shared state and no
 * new secret is needed. It is bound to one booking (another booking's token is refused) and is
 * "one-time" in effect: the workflow takes the first result only, a later return changes nothing.
 */
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { loadPayloadKey } from '../../temporal/payload-codec';
import { API_CONFIG } from '../common/api.tokens';
import type { ApiConfig } from '../config/api.config';

const TOKEN_INFO = 'ndc-saga 3-D Secure return token v1';

/** The HMAC key of return tokens, derived from the payload encryption key. */
export function returnTokenKey(payloadKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', payloadKey, Buffer.alloc(0), TOKEN_INFO, 32));
}

/** The return token of booking `id` (43 base64url characters). */
export function returnToken(key: Buffer, id: string): string {
  return createHmac('sha256', key).update(id).digest('base64url');
}

/** True when `token` is booking `id`'s (constant-time comparison). */
export function isReturnToken(key: Buffer, id: string, token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const expected = Buffer.from(returnToken(key, id));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The TermURL and FailURL of booking `id` under the API's public base URL. */
export function returnUrls(publicUrl: string, key: Buffer, id: string): { termUrl: string; failUrl: string } {
  const url = (result: 'approved' | 'declined'): string => {
    const u = new URL(`${publicUrl.replace(/\/+$/, '')}/bookings/${encodeURIComponent(id)}/authentication/return`);
    u.searchParams.set('token', returnToken(key, id));
    u.searchParams.set('result', result);
    return u.toString();
  };
  return { termUrl: url('approved'), failUrl: url('declined') };
}

/**
 * The API's 3-D Secure return URLs and their tokens: one place for single bookings and batch
 * children alike. The HMAC key is derived from PAYLOAD_ENCRYPTION_KEY, which the API's data
 * converter reads from the same environment.
 */
@Injectable()
export class AuthenticationReturns {
  private readonly key = returnTokenKey(loadPayloadKey());

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly http: HttpAdapterHost,
  ) {}

  /** The TermURL and FailURL of booking `id` (a single booking's or a batch child's id). */
  urlsOf(id: string): { termUrl: string; failUrl: string } {
    return returnUrls(this.publicUrl(), this.key, id);
  }

  /** True when `token` is booking `id`'s. */
  accepts(id: string, token: unknown): boolean {
    return isReturnToken(this.key, id, token);
  }

  /** API_PUBLIC_URL, else `http://localhost:<the port the API listens on>`. */
  private publicUrl(): string {
    if (this.config.publicUrl !== undefined) return this.config.publicUrl;
    const address = this.http.httpAdapter?.getHttpServer()?.address() as { port?: number } | string | null;
    const port = typeof address === 'object' && address?.port !== undefined ? address.port : this.config.port;
    return `http://localhost:${port}`;
  }
}

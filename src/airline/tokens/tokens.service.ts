/**
 * Card tokenisation (POST /payment/tokens). The card number is kept only
 * AES-256-GCM encrypted; the verification code is checked for form and then
 * dropped, never stored. Only non-sensitive metadata is ever returned.
 */
import { randomBytes } from 'node:crypto';
import type { AirlineClock, TokenInfo } from '../airline.ports';
import type { SqliteTokenStore } from '../store/tokens.store';
import { lookupBin } from './bin-table';
import { validateTokenRequest } from './card';
import { CardVault } from './vault';

/** `411111******1111`: first six and last four digits. */
export function maskCardNumber(pan: string): string {
  return pan.slice(0, 6) + '*'.repeat(pan.length - 10) + pan.slice(-4);
}

/** Token ids: `tok_` and 26 random base32 characters (130 bits). */
export function newTokenId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(26);
  let id = 'tok_';
  for (const b of bytes) id += alphabet[b & 31];
  return id;
}

/** UTC ISO form without milliseconds: `2026-12-01T10:00:00Z`. */
function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class TokenService {
  private readonly vault: CardVault;

  constructor(
    private readonly store: SqliteTokenStore,
    private readonly clock: AirlineClock,
    vaultKey: Buffer,
  ) {
    this.vault = new CardVault(vaultKey);
  }

  /** Validates `body` (throws TokenRequestError) and stores a new token. */
  create(body: unknown): TokenInfo {
    const now = this.clock.now();
    const req = validateTokenRequest(body, now);
    const pan = req.card.number;
    const bin = lookupBin(pan);
    const info: TokenInfo = {
      id: newTokenId(),
      brand: bin.brand,
      funding: bin.funding,
      maskedNumber: maskCardNumber(pan),
      expiresAt: isoSeconds(req.expiresAt),
    };
    this.store.saveToken({ ...info, createdAt: now.toISOString(), panCiphertext: this.vault.seal(pan) });
    return info;
  }

  /** The token, or undefined when unknown. */
  get(id: string): TokenInfo | undefined {
    return this.store.getToken(id);
  }

  /** True when the token exists and has not expired at the clock's now. */
  isUsable(id: string): boolean {
    const t = this.store.getToken(id);
    return t !== undefined && Date.parse(t.expiresAt) > this.clock.now().getTime();
  }
}

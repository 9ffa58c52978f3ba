/**
 * The {@link TokenLookup} port in SQLite, and the writing of tokens: the card number only as
 * ciphertext, the verification code never.
 */
import type { CardFunding, TokenInfo, TokenLookup } from '../airline.ports';
import type { AirlineDatabase } from './airline.database';

/** A stored card token. The card number is only held encrypted; the CVV never. */
export interface StoredToken extends TokenInfo {
  createdAt: string;
  /** AES-256-GCM ciphertext of the card number: base64 of iv(12) | tag(16) | data. */
  panCiphertext: string;
}

export class SqliteTokenStore implements TokenLookup {
  constructor(private readonly db: AirlineDatabase) {}

  saveToken(token: StoredToken): void {
    this.db.run(
      'INSERT INTO card_tokens (id, brand, funding, masked_number, expires_at, created_at, pan_ciphertext) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [token.id, token.brand, token.funding, token.maskedNumber, token.expiresAt, token.createdAt, token.panCiphertext],
    );
  }

  getToken(id: string): TokenInfo | undefined {
    const row = this.db.get('SELECT id, brand, funding, masked_number, expires_at FROM card_tokens WHERE id = ?', [id]);
    if (!row) return undefined;
    return {
      id: String(row.id),
      brand: String(row.brand),
      funding: String(row.funding) as CardFunding,
      maskedNumber: String(row.masked_number),
      expiresAt: String(row.expires_at),
    };
  }

  /** Card number ciphertext of token `id` (for the airline's own checks, never sent anywhere). */
  tokenCiphertext(id: string): string | undefined {
    const row = this.db.get('SELECT pan_ciphertext FROM card_tokens WHERE id = ?', [id]);
    return row ? String(row.pan_ciphertext) : undefined;
  }
}

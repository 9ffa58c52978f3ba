/**
 * The {@link ResponseStore} port in SQLite: shopping and pricing responses, and the index
 * "latest pricing per offer" that OrderCreate checks.
 */
import type { PricingRecord, ResponseStore, ShoppingRecord } from '../airline.ports';
import { type AirlineDatabase, jsonBytes } from './airline.database';

export class SqliteResponseStore implements ResponseStore {
  constructor(private readonly db: AirlineDatabase) {}

  /** Saves a shopping response (committed before the answer is sent). */
  saveShopping(record: ShoppingRecord): void {
    this.db.run(
      'INSERT OR REPLACE INTO shopping_responses (response_id, agency_id, created_at, expires_at, record) VALUES (?, ?, ?, ?, CAST(? AS TEXT))',
      [record.responseId, record.agencyId, record.createdAt, record.expiresAt, jsonBytes(record)],
    );
  }

  getShopping(responseId: string): ShoppingRecord | undefined {
    const row = this.db.get('SELECT record FROM shopping_responses WHERE response_id = ?', [responseId]);
    return row ? (JSON.parse(String(row.record)) as ShoppingRecord) : undefined;
  }

  savePricing(record: PricingRecord): void {
    this.db.transaction(() => {
      this.db.run(
        'INSERT OR REPLACE INTO pricing_responses (response_id, shopping_response_id, agency_id, created_at, expires_at, record) VALUES (?, ?, ?, ?, ?, CAST(? AS TEXT))',
        [
          record.responseId,
          record.shoppingResponseId,
          record.agencyId,
          record.createdAt,
          record.expiresAt,
          jsonBytes(record),
        ],
      );
      const seq = Number(
        this.db.get('SELECT seq FROM pricing_responses WHERE response_id = ?', [record.responseId])?.seq,
      );
      const offerIds = new Set([...record.requestedOfferIds, record.pricedOffer.offerId]);
      for (const offerId of offerIds) {
        this.db.run('INSERT OR REPLACE INTO priced_offers (offer_id, seq, response_id) VALUES (?, ?, ?)', [
          offerId,
          seq,
          record.responseId,
        ]);
      }
      return true;
    });
  }

  /** Rewrites the record of pricing response `record.responseId`, its place among the pricings unchanged; inside a transaction. */
  updatePricingInTransaction(record: PricingRecord): void {
    this.db.run('UPDATE pricing_responses SET record = CAST(? AS TEXT) WHERE response_id = ?', [
      jsonBytes(record),
      record.responseId,
    ]);
  }

  getPricing(responseId: string): PricingRecord | undefined {
    const row = this.db.get('SELECT record FROM pricing_responses WHERE response_id = ?', [responseId]);
    return row ? (JSON.parse(String(row.record)) as PricingRecord) : undefined;
  }

  latestPricingFor(offerId: string): string | undefined {
    const row = this.db.get('SELECT response_id FROM priced_offers WHERE offer_id = ? ORDER BY seq DESC LIMIT 1', [
      offerId,
    ]);
    return row ? String(row.response_id) : undefined;
  }
}

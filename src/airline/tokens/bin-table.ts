/**
 * BIN (issuer identification) table: decides card brand and funding, and so
 * whether the credit card surcharge (CCF2) applies. The longest matching
 * prefix wins; a number matching no entry is treated as {@link DEFAULT_BIN}
 * (credit: the airline charges the surcharge unless it knows the card is debit).
 */
import type { CardFunding } from '../airline.ports';

export interface BinEntry {
  prefix: string;
  brand: string;
  funding: CardFunding;
}

/** Test cards of the sandbox (documented in docs/airline-service.md) and brand ranges. */
export const BIN_TABLE: readonly BinEntry[] = [
  { prefix: '411111', brand: 'VISA', funding: 'credit' },
  { prefix: '555555', brand: 'MASTERCARD', funding: 'credit' },
  { prefix: '400005', brand: 'VISA', funding: 'debit' },
  { prefix: '4', brand: 'VISA', funding: 'credit' },
  { prefix: '51', brand: 'MASTERCARD', funding: 'credit' },
  { prefix: '52', brand: 'MASTERCARD', funding: 'credit' },
  { prefix: '53', brand: 'MASTERCARD', funding: 'credit' },
  { prefix: '54', brand: 'MASTERCARD', funding: 'credit' },
  { prefix: '55', brand: 'MASTERCARD', funding: 'credit' },
  { prefix: '2', brand: 'MASTERCARD', funding: 'credit' },
  { prefix: '34', brand: 'AMEX', funding: 'credit' },
  { prefix: '37', brand: 'AMEX', funding: 'credit' },
];

/** Used when no prefix matches: an unknown card is charged as a credit card. */
export const DEFAULT_BIN: Omit<BinEntry, 'prefix'> = { brand: 'UNKNOWN', funding: 'credit' };

/** Brand and funding of card number `pan` (digits only). */
export function lookupBin(pan: string): Omit<BinEntry, 'prefix'> {
  let best: BinEntry | undefined;
  for (const e of BIN_TABLE) {
    if (pan.startsWith(e.prefix) && (!best || e.prefix.length > best.prefix.length)) best = e;
  }
  return best ? { brand: best.brand, funding: best.funding } : DEFAULT_BIN;
}

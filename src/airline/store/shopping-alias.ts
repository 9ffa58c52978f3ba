/**
 * Ids of the answers the shopping response cache serves (see
 * http/shopping-cache.ts). Each cached answer has a ShoppingResponseID of its
 * own, derived from the remembered search's id and the time it was issued:
 *
 *     <base id> K <11 hex digits: issue time in ms> <4 hex digits: counter>
 *
 * so that no row has to be written per answer: {@link parseShoppingAlias}
 * finds the base record, and the store gives the alias the base record's
 * content under the alias id, created at the issue time and living as long
 * as the base record does (30 minutes). Base ids are `SR` + upper-case hex
 * digits (or `SR0001`... in tests), so they never end in `K` + 15 hex digits.
 *
 * An agency could write an alias id itself, for one of its own searches only
 * (the base record's agency applies). To keep that from stretching a search's
 * life, an alias is honoured only when its issue time lies within
 * {@link ALIAS_WINDOW_MS} of the base search, the span in which the cache can
 * issue it; at most that much longer than a real alias.
 */

const MARK = 'K';
const SUFFIX = /K([0-9A-F]{11})([0-9A-F]{4})$/;
const SUFFIX_LENGTH = 16;

/** Aliases are issued at most this long after their base search (cache TTL 30 s, plus slack). */
export const ALIAS_WINDOW_MS = 90_000;

/** What an alias id says: the remembered search's id and when the alias was issued. */
export interface ShoppingAlias {
  baseId: string;
  issuedAtMs: number;
}

/** Makes alias ids; the counter keeps ids issued in one millisecond apart (65,536 per ms). */
export class ShoppingAliasIds {
  private counter = 0;
  private lastMs = -1;
  private timeHex = '';

  next(baseId: string, issuedAtMs: number): string {
    if (issuedAtMs !== this.lastMs) {
      this.lastMs = issuedAtMs;
      this.timeHex = issuedAtMs.toString(16).toUpperCase().padStart(11, '0');
    }
    this.counter = (this.counter + 1) & 0xffff;
    const c = this.counter;
    return baseId + MARK + this.timeHex + HEX[c >> 12] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15];
  }
}

const HEX = '0123456789ABCDEF';

/** The base id and issue time of an alias id, or undefined when `id` is not one. */
export function parseShoppingAlias(id: string): ShoppingAlias | undefined {
  if (id.length <= SUFFIX_LENGTH) return undefined;
  const m = SUFFIX.exec(id);
  if (!m) return undefined;
  return { baseId: id.slice(0, id.length - SUFFIX_LENGTH), issuedAtMs: parseInt(m[1], 16) };
}

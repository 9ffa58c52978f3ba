import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PricingRecord } from '../airline.ports';
import { AirlineStore } from './airline.store';
import { ALIAS_WINDOW_MS, ShoppingAliasIds } from './shopping-alias';

describe('AirlineStore', () => {
  let store: AirlineStore;

  beforeEach(() => {
    store = new AirlineStore(':memory:');
  });

  afterEach(() => store.close());

  it('sells all segments or none, within capacity', () => {
    const cap = (key: string) => (key === 'ZZ101/2026-12-01' ? 3 : 2);
    expect(store.sellAll([{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'Y', seats: 2 }], cap)).toBe(true);
    expect(store.generation).toBe(1);
    // The second segment has room, the first does not: nothing is sold.
    expect(
      store.sellAll(
        [
          { inventoryKey: 'ZZ101/2026-12-01', rbd: 'Y', seats: 2 },
          { inventoryKey: 'ZZ102/2026-12-01', rbd: 'Y', seats: 1 },
        ],
        cap,
      ),
    ).toBe(false);
    expect([store.sold('ZZ101/2026-12-01', 'Y'), store.sold('ZZ102/2026-12-01', 'Y'), store.generation]).toEqual([2, 0, 1]);
    // Two segments of one offer in the same bucket count together.
    expect(
      store.sellAll(
        [
          { inventoryKey: 'ZZ102/2026-12-01', rbd: 'Y', seats: 1 },
          { inventoryKey: 'ZZ102/2026-12-01', rbd: 'Y', seats: 2 },
        ],
        cap,
      ),
    ).toBe(false);
    expect(store.sellAll([{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'Y', seats: 1 }], cap)).toBe(true);
    expect(store.sold('ZZ101/2026-12-01', 'Y')).toBe(3);
  });

  it('latestPricingFor is the last pricing saved for the priced offer id', () => {
    const pricing = (responseId: string) =>
      ({
        responseId,
        shoppingResponseId: 'SR1',
        agencyId: 'A',
        createdAt: '2026-11-21T06:00:00.000Z',
        expiresAt: '2026-11-21T06:30:00.000Z',
        requestedOfferIds: ['SR1-O1'],
        pricedOffer: { offerId: 'SR1-O1' },
        passengers: [],
        segments: [],
      }) as unknown as PricingRecord;
    store.savePricing(pricing('PR2'));
    store.savePricing(pricing('PR1'));
    expect(store.latestPricingFor('SR1-O1')).toBe('PR1');
    expect(store.getPricing('PR2')?.responseId).toBe('PR2');
    expect(store.latestPricingFor('nope')).toBeUndefined();
  });

  it('an alias id of a stored search is the base record under the alias id, created at its issue time with the base lifetime', () => {
    const base = {
      responseId: 'SRBASE',
      agencyId: 'A',
      createdAt: '2026-11-21T06:00:00.000Z',
      expiresAt: '2026-11-21T06:30:00.000Z',
      currency: 'GBP',
      passengers: [],
      offers: { 'SRBASE-O1': { offerId: 'SRBASE-O1' } },
    };
    store.saveShopping(base);
    const issued = Date.parse('2026-11-21T06:00:29.500Z');
    const alias = new ShoppingAliasIds().next('SRBASE', issued);
    const expected = {
      ...base,
      responseId: alias,
      createdAt: '2026-11-21T06:00:29.500Z',
      expiresAt: '2026-11-21T06:30:29.500Z',
      offers: { [`${alias}-O1`]: { offerId: `${alias}-O1` } },
    };
    expect(store.getShopping(alias)).toEqual(expected);
    store.flushShopping();
    expect(store.getShopping(alias)).toEqual(expected);
    expect(store.getShopping('SRBASE')).toEqual(base);
  });

  it('refuses an alias id issued before its base search or later than the cache could have issued it, and one of an unknown base', () => {
    store.saveShopping({ responseId: 'SRBASE', agencyId: 'A', createdAt: '2026-11-21T06:00:00.000Z', expiresAt: '2026-11-21T06:30:00.000Z', currency: 'GBP', passengers: [], offers: {} });
    const ids = new ShoppingAliasIds();
    const created = Date.parse('2026-11-21T06:00:00.000Z');
    expect(store.getShopping(ids.next('SRBASE', created))).toBeDefined();
    expect(store.getShopping(ids.next('SRBASE', created + ALIAS_WINDOW_MS))).toBeDefined();
    expect(store.getShopping(ids.next('SRBASE', created - 1))).toBeUndefined();
    expect(store.getShopping(ids.next('SRBASE', created + ALIAS_WINDOW_MS + 1))).toBeUndefined();
    expect(store.getShopping(ids.next('SRNONE', created))).toBeUndefined();
  });

  describe('on disk', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'airline-store-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps data across close and reopen', () => {
      const path = join(dir, 'a.db');
      const s1 = new AirlineStore(path);
      s1.sellAll([{ inventoryKey: 'K', rbd: 'Y', seats: 2 }], () => 9);
      s1.close();
      const s2 = new AirlineStore(path);
      expect(s2.sold('K', 'Y')).toBe(2);
      s2.close();
      expect(existsSync(`${path}.owner`)).toBe(false);
    });

    it('writes a flush of more rows than one INSERT statement holds (37 = 16 + 16 + 5), all readable after reopen, aliases too', () => {
      const path = join(dir, 'c.db');
      const s1 = new AirlineStore(path);
      const record = (i: number) => ({
        responseId: `SRA${String(i).padStart(2, '0')}`,
        agencyId: 'A',
        createdAt: `2026-11-21T06:01:${String(i).padStart(2, '0')}.000Z`,
        expiresAt: '2026-11-21T06:31:00.000Z',
        currency: 'GBP',
        passengers: [],
        offers: {},
      });
      const records = Array.from({ length: 37 }, (_, i) => record(i));
      for (const r of records) s1.saveShopping(r);
      s1.flushShopping();
      s1.close();
      const s2 = new AirlineStore(path);
      expect(records.map((r) => s2.getShopping(r.responseId))).toEqual(records);
      const alias = new ShoppingAliasIds().next('SRA36', Date.parse('2026-11-21T06:01:40.000Z'));
      expect(s2.getShopping(alias)).toEqual({ ...records[36], responseId: alias, createdAt: '2026-11-21T06:01:40.000Z', expiresAt: '2026-11-21T06:31:04.000Z' });
      s2.close();
    });

    it('removes a lock left behind by a killed process', () => {
      const path = join(dir, 'b.db');
      new AirlineStore(path).close();
      mkdirSync(`${path}.lock`);
      // A pid that cannot exist (above the Linux pid_max limit).
      writeFileSync(`${path}.owner`, '4194305');
      const s = new AirlineStore(path);
      expect(s.sold('K', 'Y')).toBe(0);
      s.close();
    });
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { orderViewRs } from '../../ndc/fixtures/order-view-rs.fixtures';
import type { PricingRecord } from '../airline.ports';
import type { OrderContent } from '../servicing/servicing.types';
import { AirlineStore, type StoredAuthentication, type StoredOrder } from './airline.store';

describe('AirlineStore', () => {
  let store: AirlineStore;

  beforeEach(() => {
    store = new AirlineStore(':memory:');
  });

  afterEach(() => store.close());

  it('sells all segments or none, within capacity', () => {
    const cap = (key: string) => (key === 'ZZ101/2026-12-01' ? 3 : 2);
    expect(store.inventory.sellAll([{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'Y', seats: 2 }], cap)).toBe(true);
    // The second segment has room, the first does not: nothing is sold.
    expect(
      store.inventory.sellAll(
        [
          { inventoryKey: 'ZZ101/2026-12-01', rbd: 'Y', seats: 2 },
          { inventoryKey: 'ZZ102/2026-12-01', rbd: 'Y', seats: 1 },
        ],
        cap,
      ),
    ).toBe(false);
    expect([store.inventory.sold('ZZ101/2026-12-01', 'Y'), store.inventory.sold('ZZ102/2026-12-01', 'Y')]).toEqual([
      2, 0,
    ]);
    // Two segments of one offer in the same bucket count together.
    expect(
      store.inventory.sellAll(
        [
          { inventoryKey: 'ZZ102/2026-12-01', rbd: 'Y', seats: 1 },
          { inventoryKey: 'ZZ102/2026-12-01', rbd: 'Y', seats: 2 },
        ],
        cap,
      ),
    ).toBe(false);
    expect(store.inventory.sellAll([{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'Y', seats: 1 }], cap)).toBe(true);
    expect(store.inventory.sold('ZZ101/2026-12-01', 'Y')).toBe(3);
  });

  it('soldOn gives the seats sold on one inventory key by booking class', () => {
    const cap = () => 9;
    store.inventory.sellAll(
      [
        { inventoryKey: 'ZZ101/2026-12-01', rbd: 'Y', seats: 2 },
        { inventoryKey: 'ZZ101/2026-12-01', rbd: 'B', seats: 1 },
        { inventoryKey: 'ZZ102/2026-12-01', rbd: 'Y', seats: 4 },
      ],
      cap,
    );
    expect([...store.inventory.soldOn('ZZ101/2026-12-01')].sort()).toEqual([
      ['B', 1],
      ['Y', 2],
    ]);
    expect(store.inventory.soldOn('ZZ103/2026-12-01').size).toBe(0);
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
    store.responses.savePricing(pricing('PR2'));
    store.responses.savePricing(pricing('PR1'));
    expect(store.responses.latestPricingFor('SR1-O1')).toBe('PR1');
    expect(store.responses.getPricing('PR2')?.responseId).toBe('PR2');
    expect(store.responses.latestPricingFor('nope')).toBeUndefined();
  });

  describe('what spans areas, in one transaction', () => {
    const segments = [{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'Y', seats: 2 }];
    const seat = { inventoryKey: 'ZZ101/2026-12-01', seat: '12A' };
    const view = orderViewRs as StoredOrder['view'];
    const order: StoredOrder = {
      orderId: 'ZZ-ORD-1',
      bookingReference: 'ABC234',
      agencyId: 'A',
      shoppingResponseId: 'SR1',
      pricingResponseId: 'PR1',
      createdAt: '2026-11-21T06:00:00.000Z',
      status: 'live',
      version: 1,
      view,
    };
    const cancellation = {
      cancelledAt: '2026-11-21T07:00:00.000Z',
      kind: 'void' as const,
      fee: { value: '0.00', currency: 'GBP' },
      refund: { value: '10.00', currency: 'GBP' },
    };

    const moves = { release: segments, sell: [], releaseSeats: [seat], sellSeats: [], seatOwner: '' };
    const cancel = (version: number) =>
      store.transaction(() =>
        store.reviseOrderInTransaction(
          order.orderId,
          version,
          { status: 'cancelled', content: {} as OrderContent, view, cancellation },
          moves,
          () => 9,
          '2026-11-21T07:00:00.000Z',
        ),
      );

    it('reviseOrderInTransaction marks the order cancelled and gives its seats back, once per version', () => {
      store.transaction(() => {
        store.inventory.sellAllInTransaction(segments, () => 9);
        store.orders.saveOrder(order);
        return store.seats.sellSeatsInTransaction([seat], 'TX1', order.orderId, '2026-11-21T06:00:00.000Z');
      });
      expect([
        store.inventory.sold('ZZ101/2026-12-01', 'Y'),
        [...store.seats.takenSeats(seat.inventoryKey, 'TX2', '')],
      ]).toEqual([2, ['12A']]);
      expect(cancel(1)).toBe(true);
      expect(store.orders.getOrder(order.orderId)).toMatchObject({ cancellation, status: 'cancelled', version: 2 });
      expect([
        store.inventory.sold('ZZ101/2026-12-01', 'Y'),
        store.seats.takenSeats(seat.inventoryKey, 'TX2', '').size,
      ]).toEqual([0, 0]);
      // A second revision of the same version changes nothing (nothing is given back twice).
      store.inventory.sellAll(segments, () => 9);
      expect(cancel(1)).toBe(false);
      expect(store.inventory.sold('ZZ101/2026-12-01', 'Y')).toBe(2);
    });

    it('endAuthentication gives the held seats back unless the hold became an order', () => {
      const hold = (spmRef: string): StoredAuthentication =>
        ({
          spmRef,
          pricingResponseId: 'PR1',
          expiresAt: '2026-11-21T06:10:00.000Z',
          state: 'pending',
          segments,
        }) as StoredAuthentication;
      store.inventory.sellAll([...segments, ...segments], () => 9);
      store.transaction(() => {
        store.authentications.saveAuthentication(hold('SPM-1'));
        store.authentications.saveAuthentication(hold('SPM-2'));
        return true;
      });
      expect(store.transaction(() => store.endAuthentication(hold('SPM-1'), 'ordered', 'ZZ-ORD-1'))).toBe(true);
      expect(store.transaction(() => store.endAuthentication(hold('SPM-2'), 'declined'))).toBe(true);
      expect(store.transaction(() => store.endAuthentication(hold('SPM-2'), 'expired'))).toBe(false);
      expect(store.inventory.sold('ZZ101/2026-12-01', 'Y')).toBe(2);
      expect(store.authentications.getAuthentication('SPM-1')).toMatchObject({ state: 'ordered', orderId: 'ZZ-ORD-1' });
      expect(store.authentications.getAuthentication('SPM-2')?.state).toBe('declined');
    });
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
      s1.inventory.sellAll([{ inventoryKey: 'K', rbd: 'Y', seats: 2 }], () => 9);
      s1.close();
      const s2 = new AirlineStore(path);
      expect(s2.inventory.sold('K', 'Y')).toBe(2);
      s2.close();
      expect(existsSync(`${path}.owner`)).toBe(false);
    });

    it('every saved search is a stored record, readable after reopen', () => {
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
      const records = Array.from({ length: 3 }, (_, i) => record(i));
      for (const r of records) s1.responses.saveShopping(r);
      s1.close();
      const s2 = new AirlineStore(path);
      expect(records.map((r) => s2.responses.getShopping(r.responseId))).toEqual(records);
      expect(s2.responses.getShopping('SRA99')).toBeUndefined();
      s2.close();
    });

    it('stores JSON records as TEXT, non-ASCII text included', () => {
      const path = join(dir, 'd.db');
      const s1 = new AirlineStore(path);
      const record = {
        responseId: 'SRU1',
        agencyId: 'Agence Zoë',
        createdAt: '2026-11-21T06:01:00.000Z',
        expiresAt: '2026-11-21T06:31:00.000Z',
        currency: 'GBP',
        passengers: [{ passengerId: 'PAX1', ptc: 'ADT', name: 'Łukasz 李 \u{1F6EB} "x" \\ \u0000' }],
        offers: {},
      };
      s1.responses.saveShopping(record);
      s1.close();
      const db = new Database(path);
      db.exec('PRAGMA locking_mode = EXCLUSIVE'); // WAL without shared memory, as the store opens it
      expect(db.all('SELECT typeof(record) AS type, record FROM shopping_responses')).toEqual([
        { type: 'text', record: JSON.stringify(record) },
      ]);
      db.close();
      const s2 = new AirlineStore(path);
      expect(s2.responses.getShopping('SRU1')).toEqual(record);
      s2.close();
    });

    it('removes a lock left behind by a killed process', () => {
      const path = join(dir, 'b.db');
      new AirlineStore(path).close();
      mkdirSync(`${path}.lock`);
      // A pid that cannot exist (above the Linux pid_max limit).
      writeFileSync(`${path}.owner`, '4194305');
      const s = new AirlineStore(path);
      expect(s.inventory.sold('K', 'Y')).toBe(0);
      s.close();
    });
  });
});

/** Orders under concurrency (never oversold) and across restarts (SQLite file). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIRLINE_WORLD } from '../../src/airline/airline.tokens';
import { AirlineStore } from '../../src/airline/store/airline.store';
import type { World } from '../../src/airline/world/world';
import { createToken, http, startAirline } from './airline-harness';
import { NdcClient, inDays, pricedOffer } from './ndc-client';

const TWO_ADULTS = [
  { passengerId: 'PAX__ADT01', ptc: 'ADT' },
  { passengerId: 'PAX__ADT02', ptc: 'ADT' },
];

describe('airline orders', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'airline-orders-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('concurrent orders on the last seats: exactly the orders that fit succeed, never oversold', async () => {
    const airline = await startAirline();
    try {
      const c = new NdcClient(airline.url);
      const store = airline.app.get(AirlineStore);
      const world = airline.app.get<World>(AIRLINE_WORLD);
      const token = await createToken(airline.url, '4000056655665556');
      // Six agencies price two adults each on the same flight, date and booking class.
      const offers = [];
      for (let i = 0; i < 6; i++) {
        offers.push(await pricedOffer(c, { date: inDays(70), passengers: TWO_ADULTS, agencyId: `AG${i}` }));
      }
      const segments = store.responses.getPricing(offers[0].priced.shoppingResponseId!)!.segments;
      expect(segments).toHaveLength(1);
      const { inventoryKey, rbd } = segments[0];
      for (const o of offers)
        expect(store.responses.getPricing(o.priced.shoppingResponseId!)!.segments).toEqual(segments);
      // Leave five seats: two orders of two fit, a third does not.
      const capacity = world.capacity(inventoryKey, rbd);
      expect(store.inventory.sellAll([{ inventoryKey, rbd, seats: capacity - 5 }], world.capacityOf)).toBe(true);

      const results = await Promise.all(offers.map((o, i) => c.orderCreate(o.priced, token, o.passengers, `AG${i}`)));
      const ok = results.filter((r) => r.kind === 'success');
      const refused = results.filter((r) => r.kind === 'error');
      expect(ok).toHaveLength(2);
      expect(refused).toHaveLength(4);
      for (const r of refused) expect(r.kind === 'error' && r.errors[0].code).toBe('711');
      expect(store.inventory.sold(inventoryKey, rbd)).toBe(capacity - 1);
    } finally {
      await airline.close();
    }
  });

  it('orders, tokens and responses survive a restart on the same database file', async () => {
    const dbPath = join(dir, 'restart.db');
    let airline = await startAirline({ dbPath });
    let c = new NdcClient(airline.url);
    const token = await createToken(airline.url, '4000056655665556');
    const { shoppingResponseId, priced, passengers } = await pricedOffer(c, { date: inDays(80) });
    const created = await c.orderCreate(priced, token, passengers);
    if (created.kind !== 'success') throw new Error(JSON.stringify(created));
    const orderId = created.orders[0].orderId;
    await airline.close();

    airline = await startAirline({ dbPath });
    try {
      c = new NdcClient(airline.url);
      const retrieved = await c.retrieve(orderId);
      if (retrieved.kind !== 'success') throw new Error(JSON.stringify(retrieved));
      expect(retrieved.orders).toEqual(created.orders);
      expect(retrieved.dataLists).toEqual(created.dataLists);
      expect((await c.getOrders(shoppingResponseId, 'AGENCY01')).status).toBe(200);
      expect((await http(`${airline.url}/payment/tokens/${token}`)).status).toBe(200);
      const store = airline.app.get(AirlineStore);
      expect(store.responses.getPricing(priced.shoppingResponseId!)?.responseId).toBe(priced.shoppingResponseId);
      expect(store.responses.getShopping(shoppingResponseId)?.responseId).toBe(shoppingResponseId);
      // Seats stay sold.
      const seg = store.responses.getPricing(priced.shoppingResponseId!)!.segments[0];
      expect(store.inventory.sold(seg.inventoryKey, seg.rbd)).toBe(1);
    } finally {
      await airline.close();
    }
  });
});

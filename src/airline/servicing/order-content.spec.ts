import { applyPlan, orderTotal, settle } from './order-content';
import { contentOf, extraItem, fareItem, surchargeItem } from './servicing.fixture';
import type { ChangePlan } from './servicing.types';

const money = (value: string) => ({ value, currency: 'GBP' });
const pax = [
  { passengerId: 'PAX1', ptc: 'ADT' },
  { passengerId: 'PAX2', ptc: 'ADT' },
];

function plan(over: Partial<ChangePlan>): ChangePlan {
  return {
    kind: 'flights',
    version: 1,
    removeItemIds: [],
    addItems: [],
    removeJourneys: [],
    addJourneys: [],
    release: [],
    sell: [],
    releaseSeats: [],
    sellSeats: [],
    removePassengerIds: [],
    difference: money('0.00'),
    penalty: money('0.00'),
    ...over,
  };
}

describe('applyPlan', () => {
  const content = contentOf(
    pax,
    [
      fareItem('F1', 'PAX1', 'ECONOMY', '46.55', '13.00'),
      fareItem('F2', 'PAX2', 'ECONOMY', '46.55', '13.00'),
      surchargeItem('C', ['PAX1', 'PAX2'], '2.38'),
      extraItem('B2', 'PAX2', '35.00'),
    ],
    '156.48',
  );

  it('removes a passenger from the order: its items, its seat, its share of the inventory and of shared items', () => {
    const next = applyPlan(
      content,
      plan({
        kind: 'passengers',
        removeItemIds: ['F2', 'B2'],
        release: [{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'O', seats: 1 }],
        releaseSeats: content.seats,
        removePassengerIds: ['PAX2'],
      }),
    );
    expect(next.items.map((i) => [i.offerItemId, i.services[0]!.passengerRefs])).toEqual([
      ['F1', ['PAX1']],
      ['C', ['PAX1']],
    ]);
    expect([next.passengers, next.seats, next.segments]).toEqual([
      [pax[0]],
      [],
      [{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'O', seats: 1 }],
    ]);
    expect(orderTotal(next)).toEqual(money('61.93'));
  });

  it('replaces a repriced item in place and moves the inventory to its new class', () => {
    const repriced = fareItem('F1', 'PAX1', 'ECONOMY', '65.55', '13.00');
    const next = applyPlan(
      content,
      plan({
        kind: 'reprice',
        removeItemIds: ['F1'],
        addItems: [repriced],
        release: [{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'O', seats: 2 }],
        sell: [{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'N', seats: 2 }],
      }),
    );
    expect([next.items[0], next.items.length, next.segments]).toEqual([
      repriced,
      4,
      [{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'N', seats: 2 }],
    ]);
  });
});

describe('settle', () => {
  const content = {
    ...contentOf(pax, [fareItem('F1', 'PAX1', 'ECONOMY', '46.55', '13.00')], '59.55'),
    hold: { paymentDue: 'x', priceGuaranteedUntil: 'y' },
  };

  it('records a charge and pays a hold; a refund comes off what was paid, its penalty listed first', () => {
    const paid = settle(content, {
      charge: { type: 'CC', amount: money('10.00'), voucherNumber: 'tok_2' },
      paysHold: true,
    });
    expect([paid.paid, paid.charges.length, paid.hold]).toEqual([money('69.55'), 2, undefined]);
    const penalty = { penaltyId: 'PEN__X', details: [] };
    const refunded = settle(
      { ...paid, penalties: [{ penaltyId: 'PEN__OLD', details: [] }] },
      { refund: money('69.55'), penalty },
    );
    expect([refunded.paid, refunded.penalties.map((p) => p.penaltyId)]).toEqual([
      money('0.00'),
      ['PEN__X', 'PEN__OLD'],
    ]);
  });

  it('never refunds more than was paid', () => {
    expect(() => settle(content, { refund: money('59.56') })).toThrow('exceeds what was paid');
  });
});

import { changeOffersRs, passengerRefundQuoteRs, refundQuoteRs } from './fixtures/order-reshop.fixtures';
import {
  HOLD_PAYMENT_TIME_LIMIT,
  HOLD_PRICE_GUARANTEE_TIME_LIMIT,
  heldOrderViewRs,
  orderViewRs,
} from './fixtures/order-view-rs.fixtures';
import type { Order } from './ndc.model';
import { NdcMissingElementError } from './require-element';
import { orderTimeLimits, passengerOrderItemIds, reshopSummary } from './order-servicing';
import type { OrderReshopRs, ReshopOffer } from './servicing.model';

function offerOf(rs: OrderReshopRs): ReshopOffer {
  if (rs.kind !== 'success' || rs.result.kind !== 'offers') throw new Error('expected offers');
  return rs.result.offers[0]!;
}
function orderOf(rs: typeof orderViewRs): Order {
  if (rs.kind !== 'success') throw new Error('expected the success form');
  return rs.orders[0]!;
}

describe('reshopSummary', () => {
  it('a change: what the new items cost beyond what was paid, penalties included, to pay', () => {
    expect(reshopSummary(offerOf(changeOffersRs), 'GBP')).toStrictEqual({
      difference: { value: '406.50', currency: 'GBP' },
      penalty: { value: '150.00', currency: 'GBP' },
      original: { value: '1591.30', currency: 'GBP' },
      newPrice: { value: '1847.80', currency: 'GBP' },
    });
  });

  it('a refund quote: what is refunded (negative) after the penalties, of the whole order and of one passenger', () => {
    expect(reshopSummary(offerOf(refundQuoteRs), 'GBP')).toStrictEqual({
      difference: { value: '-2534.21', currency: 'GBP' },
      penalty: { value: '450.00', currency: 'GBP' },
      original: { value: '2984.21', currency: 'GBP' },
    });
    expect(reshopSummary(offerOf(passengerRefundQuoteRs), 'GBP')).toStrictEqual({
      difference: { value: '-844.10', currency: 'GBP' },
      penalty: { value: '150.00', currency: 'GBP' },
      original: { value: '994.10', currency: 'GBP' },
    });
  });

  it('takes the currency given for amounts without one; refuses another currency and a due whose currency is unknown', () => {
    const offer = offerOf(passengerRefundQuoteRs);
    const noCode: ReshopOffer = {
      ...offer,
      deleteItems: offer.deleteItems.map((d) => ({
        ...d,
        differential: { due: { payer: 'airline', amount: { value: d.differential!.due.amount!.value } } },
      })),
    };
    expect(reshopSummary(noCode, 'GBP').difference).toStrictEqual({ value: '-844.10', currency: 'GBP' });
    expect(() => reshopSummary(offer, 'EUR')).toThrow(
      'ReshopOffer RSO__REFUND_ADT02: ReshopDifferential/ReshopDue/Total/Amount in GBP, not EUR',
    );
    const unknown: ReshopOffer = {
      ...noCode,
      deleteItems: noCode.deleteItems.map((d) => ({
        ...d,
        differential: { due: { ...d.differential!.due, amount: { value: '1.00', decimals: 2 } } },
      })),
    };
    expect(() => reshopSummary(unknown, 'GBP')).toThrow(NdcMissingElementError);
    expect(reshopSummary({ ...offer, deleteItems: [] }, 'JPY')).toStrictEqual({
      difference: { value: '0', currency: 'JPY' },
      penalty: { value: '0', currency: 'JPY' },
    });
  });
});

describe('orderTimeLimits', () => {
  it('a held order: the payment limit of the order, the earliest price guarantee of its items; a paid order has none', () => {
    const held = orderOf(heldOrderViewRs);
    expect(orderTimeLimits(held)).toStrictEqual({
      paymentDue: HOLD_PAYMENT_TIME_LIMIT,
      priceGuaranteedUntil: HOLD_PRICE_GUARANTEE_TIME_LIMIT,
    });
    const itemsOnly: Order = {
      ...held,
      paymentTimeLimit: undefined,
      orderItems: held.orderItems.map((item, i) =>
        i === 3
          ? {
              ...item,
              paymentTimeLimit: '2026-11-22T05:00:00+00:00',
              priceGuaranteeTimeLimit: '2026-11-21T08:00:00+02:00',
            }
          : item,
      ),
    };
    delete itemsOnly.paymentTimeLimit;
    // Compared as instants: 08:00+02:00 is 06:00Z, before 07:00Z.
    expect(orderTimeLimits(itemsOnly)).toStrictEqual({
      paymentDue: '2026-11-22T05:00:00+00:00',
      priceGuaranteedUntil: '2026-11-21T08:00:00+02:00',
    });
    expect(orderTimeLimits(orderOf(orderViewRs))).toStrictEqual({});
  });
});

describe('passengerOrderItemIds', () => {
  it("one passenger's items, never an item shared with another passenger", () => {
    const order = orderOf(orderViewRs);
    expect(passengerOrderItemIds(order, 'PAX__ADT02')).toStrictEqual([
      'OI__ORD-9K2Q7X-OUT-PAX__ADT02',
      'OI__ORD-9K2Q7X-RET-PAX__ADT02',
    ]);
    // The card fee item is the first adult's: it goes with them.
    expect(passengerOrderItemIds(order, 'PAX__ADT01')).toStrictEqual([
      'OI__ORD-9K2Q7X-OUT-PAX__ADT01',
      'OI__ORD-9K2Q7X-RET-PAX__ADT01',
      'OI__ORD-9K2Q7X-CCF2',
    ]);
    const shared: Order = {
      ...order,
      orderItems: [
        {
          ...order.orderItems[0]!,
          services: [...order.orderItems[0]!.services, { serviceId: 'X', passengerRef: 'PAX__ADT02', segmentRef: 'S' }],
        },
      ],
    };
    expect(passengerOrderItemIds(shared, 'PAX__ADT01')).toStrictEqual([]);
  });
});

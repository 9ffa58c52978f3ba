import type { OfferPriceRs, OrderCreateRq, Passenger } from '../../../src/ndc/ndc.model';
import { loadWorld } from '../../../src/airline/world/world';
import { AGENCY, dayRq, offerPriceRq, pricingServices, selection } from './world.fixture';
import {
  buildOrderItems,
  checkOrderAgainstPricing,
  orderCommission,
} from '../../../src/airline/order-pricing/order-pricing';
import { requireElement } from '../../../src/ndc/require-element';
import { AirlineError } from '../../../src/airline/airline.errors';

const world = loadWorld();
const SHOP_PAX: Passenger[] = [
  { passengerId: 'PAX__ADT01', ptc: 'ADT' },
  { passengerId: 'PAX__CHD01', ptc: 'CHD' },
];
const PRICE_PAX: Passenger[] = [
  { passengerId: 'PAX__ADT01', ptc: 'ADT', individual: { surname: 'Smith', birthdate: '1980-01-01' } },
  { passengerId: 'PAX__CHD01', ptc: 'CHD', individual: { surname: 'Smith', birthdate: '2016-05-05' } },
];
const ORDER_PAX: Passenger[] = [
  {
    passengerId: 'PAX__ADT01',
    ptc: 'ADT',
    individual: { nameTitle: 'MR', givenNames: ['John'], surname: 'Smith', birthdate: '1980-01-01' },
    contactInfoRef: 'CTC1',
  },
  {
    passengerId: 'PAX__CHD01',
    ptc: 'CHD',
    individual: { givenNames: ['Amy'], surname: 'Smith', birthdate: '2016-05-05' },
  },
];

/** The check's error as [code, text], or 'ok'. */
function errorOf(check: () => unknown): 'ok' | (string | undefined)[] {
  try {
    check();
    return 'ok';
  } catch (e) {
    if (!(e instanceof AirlineError)) throw e;
    return [e.ndc.code, e.ndc.text];
  }
}

function setup() {
  const { store, tokens, clock, shopping, pricing } = pricingServices(world);
  // PLUS one-way LGW-OSL on 2026-12-01: ADT 94.05 + 13.00; CHD 70.54 (UK tax waived).
  const rs = shopping.shop(dayRq([['LGW', 'OSL', '2026-12-01']], SHOP_PAX));
  if (rs.kind !== 'day') throw new Error(JSON.stringify(rs));
  const plus = rs.airlineOffers[0].offers[1];
  const selected = [selection(rs.shoppingResponseId, plus)];
  const price = (token?: string): Extract<OfferPriceRs, { kind: 'success' }> => {
    const r = pricing.price(offerPriceRq(selected, PRICE_PAX, token ? { token } : {}));
    if (r.kind !== 'success') throw new Error(JSON.stringify(r));
    return r;
  };
  /** The check's error as [code, text], or 'ok'. */
  const check = (rq: OrderCreateRq) => errorOf(() => checkOrderAgainstPricing(rq, store, tokens, clock));
  return { store, tokens, clock, price, check };
}

function orderRq(
  priced: Extract<OfferPriceRs, { kind: 'success' }>,
  token: string,
  over: Partial<OrderCreateRq> = {},
): OrderCreateRq {
  const o = priced.pricedOffer;
  return {
    target: 'Test',
    version: '17.2',
    timeStamp: '2026-11-21T06:05:00Z',
    party: AGENCY,
    offers: [
      {
        offerId: o.offerId,
        owner: o.owner,
        responseId: priced.shoppingResponseId!,
        totalOfferPrice: o.total,
        offerItems: o.offerItems.map((i) => ({
          offerItemId: i.offerItemId,
          passengerRefs: i.services[0].passengerRefs,
        })),
      },
    ],
    payments: [{ type: 'CC', voucherNumber: token, amount: o.total! }],
    passengers: ORDER_PAX,
    contacts: [
      {
        contactId: 'CTC1',
        provided: [{ email: 'john@example.com' }, { phone: { countryDialingCode: '44', phoneNumber: '2079460000' } }],
      },
    ],
    ...over,
  };
}

/** The order item of `passenger` on the PLUS offer: its fare, the flight and the PLUS bundle on ZZ101. */
function plusOrderItem(passenger: string, base: string, taxes: string) {
  const id = `SR0001-O2-${passenger}`;
  return {
    orderItemId: id,
    owner: 'ZZ',
    base: { value: base, currency: 'GBP' },
    taxes: { value: taxes, currency: 'GBP' },
    services: [
      { serviceId: `${id}-OS1`, passengerRef: passenger, segmentRef: 'SEG__ZZ101_20261201' },
      {
        serviceId: `${id}-OS2`,
        passengerRef: passenger,
        serviceDefinitionRef: 'SD__BNDL_PLUS',
        segmentRef: 'SEG__ZZ101_20261201',
      },
    ],
  };
}

describe('checkOrderAgainstPricing', () => {
  it('accepts an order from the latest pricing with a debit card and builds its items and commission', () => {
    const s = setup();
    const priced = s.price();
    expect(priced.pricedOffer.total?.value).toBe('177.59');
    const pricing = checkOrderAgainstPricing(orderRq(priced, 'TOK-DEBIT'), s.store, s.tokens, s.clock);
    expect(pricing.responseId).toBe(priced.shoppingResponseId);
    expect(buildOrderItems(pricing)).toEqual([
      plusOrderItem('PAX__ADT01', '94.05', '13.00'),
      plusOrderItem('PAX__CHD01', '70.54', '0.00'),
    ]);
    // 1% of 94.05 + 70.54 = 1.6459
    expect(orderCommission(pricing)).toEqual({ value: '1.65', currency: 'GBP' });
  });

  it('accepts a credit card only from the token-bearing pricing, whose CCF2 item becomes an order item', () => {
    const s = setup();
    const first = s.price();
    expect(s.check(orderRq(first, 'TOK-CREDIT'))).toEqual([
      '740',
      'Card 411111******1111 carries the CCF2 credit card surcharge: price the offer with this card token (OfferPriceRQ PaymentFormMetadata) before ordering',
    ]);
    const withToken = s.price('TOK-CREDIT');
    expect(withToken.pricedOffer.total?.value).toBe('181.14'); // 177.59 + 3.55
    const pricing = checkOrderAgainstPricing(orderRq(withToken, 'TOK-CREDIT'), s.store, s.tokens, s.clock);
    expect(buildOrderItems(pricing)[2]).toEqual({
      orderItemId: 'SR0001-O2-CCF2',
      owner: 'ZZ',
      base: { value: '3.55', currency: 'GBP' },
      taxes: { value: '0.00', currency: 'GBP' },
      services: [
        { serviceId: 'SR0001-O2-CCF2-OS1', passengerRef: 'PAX__ADT01', serviceDefinitionRef: 'SD__CCF2' },
        { serviceId: 'SR0001-O2-CCF2-OS2', passengerRef: 'PAX__CHD01', serviceDefinitionRef: 'SD__CCF2' },
      ],
    });
    expect(orderCommission(pricing).value).toBe('1.65');
    // An exempt card cannot pay a total that includes the surcharge.
    expect(s.check(orderRq(withToken, 'TOK-DEBIT'))[0]).toBe('740');
  });

  it('refuses a stale pricing response once the offer was priced again', () => {
    const s = setup();
    const first = s.price();
    const second = s.price();
    expect(s.check(orderRq(first, 'TOK-DEBIT'))).toEqual([
      '741',
      `Pricing response ${first.shoppingResponseId} was superseded by ${second.shoppingResponseId}; order from the most recent OfferPriceRS`,
    ]);
    expect(s.check(orderRq(second, 'TOK-DEBIT'))).toBe('ok');
  });

  it('refuses a TotalOfferPrice, items or payment that do not match the pricing', () => {
    const s = setup();
    const priced = s.price();
    const base = orderRq(priced, 'TOK-DEBIT');
    const offer = requireElement(base.offers[0], 'Query/Order/Offer');
    expect(s.check({ ...base, offers: [{ ...offer, totalOfferPrice: { value: '177.58', currency: 'GBP' } }] })).toEqual(
      ['740', 'TotalOfferPrice 177.58 GBP differs from the priced total 177.59 GBP'],
    );
    expect(s.check({ ...base, offers: [{ ...offer, offerItems: offer.offerItems.slice(1) }] })[0]).toBe('740');
    expect(
      s.check({
        ...base,
        payments: [{ type: 'CC', voucherNumber: 'TOK-DEBIT', amount: { value: '177.59', currency: 'EUR' } }],
      }),
    ).toEqual(['743', 'Payment currency EUR differs from the offer currency GBP; pay in GBP']);
    expect(
      s.check({
        ...base,
        payments: [{ type: 'CC', voucherNumber: 'TOK-DEBIT', amount: { value: '177.5900', currency: 'GBP' } }],
      }),
    ).toBe('ok');
    expect(
      s.check({
        ...base,
        payments: [{ type: 'CC', voucherNumber: 'TOK-DEBIT', amount: { value: '100.00', currency: 'GBP' } }],
      })[0],
    ).toBe('742');
    expect(s.check({ ...base, offers: [{ ...offer, responseId: 'PR9999' }] })[0]).toBe('720');
    expect(s.check({ ...base, party: { name: 'Other', agencyId: 'AGENCY02' } })[0]).toBe('720');
  });

  it('takes a TotalOfferPrice and payment Amount sent without Code in the offer currency', () => {
    const s = setup();
    const base = orderRq(s.price(), 'TOK-DEBIT');
    const offer = requireElement(base.offers[0], 'Query/Order/Offer');
    const bare = {
      ...base,
      offers: [{ ...offer, totalOfferPrice: { value: '177.59' } }],
      payments: [{ ...base.payments[0], amount: { value: '177.590' } }],
    };
    expect(s.check(bare)).toBe('ok');
    // A stated other currency is still a currency mismatch.
    const eur = { ...bare, payments: [{ ...base.payments[0], amount: { value: '177.59', currency: 'EUR' } }] };
    expect(s.check(eur)[0]).toBe('743');
  });

  it('refuses an order of two flight Offers with 723, naming the second one', () => {
    const s = setup();
    const base = orderRq(s.price(), 'TOK-DEBIT');
    const offer = requireElement(base.offers[0], 'Query/Order/Offer');
    const two = { ...base, offers: [offer, { ...offer, offerId: 'OF_SECOND' }] };
    expect(s.check(two)).toEqual([
      '723',
      'The request names 2 flight Offers (Query/Order/Offer[2] is OF_SECOND); an order is created from one priced offer: ' +
        'price every direction in one OfferPriceRQ and order its PricedOffer',
    ]);
  });

  it('refuses unknown and expired tokens and an expired pricing', () => {
    const s = setup();
    const priced = s.price();
    expect(s.check(orderRq(priced, 'TOK-NOPE'))).toEqual(['752', 'Card token of the payment not found']);
    s.clock.set('2026-11-21T06:29:59.000Z');
    expect(s.check(orderRq(priced, 'TOK-DEBIT'))).toBe('ok');
    s.clock.set('2026-11-21T06:30:00.000Z');
    expect(s.check(orderRq(priced, 'TOK-DEBIT'))[0]).toBe('721');
    const s2 = setup();
    const p2 = s2.price();
    s2.tokens.add({
      id: 'TOK-SHORT',
      brand: 'VISA',
      funding: 'debit',
      maskedNumber: '400005******5556',
      expiresAt: '2026-11-21T06:01:00.000Z',
    });
    s2.clock.set('2026-11-21T06:02:00.000Z');
    expect(s2.check(orderRq(p2, 'TOK-SHORT'))).toEqual([
      '751',
      'Card token TOK-SHORT expired at 2026-11-21T06:01:00.000Z',
    ]);
  });

  it('refuses missing Individual data and contacts, naming what is missing', () => {
    const s = setup();
    const priced = s.price();
    const noNames = ORDER_PAX.map((p) =>
      p.passengerId === 'PAX__CHD01' ? { ...p, individual: { surname: 'Smith' } } : p,
    );
    expect(s.check(orderRq(priced, 'TOK-DEBIT', { passengers: noNames }))).toEqual([
      '731',
      'Individual data missing: PAX__CHD01 (GivenName, Birthdate)',
    ]);
    const otherBirthdate = ORDER_PAX.map((p) =>
      p.passengerId === 'PAX__ADT01' ? { ...p, individual: { ...p.individual!, birthdate: '1990-01-01' } } : p,
    );
    expect(s.check(orderRq(priced, 'TOK-DEBIT', { passengers: otherBirthdate }))[0]).toBe('722');
    expect(s.check(orderRq(priced, 'TOK-DEBIT', { contacts: [] }))).toEqual([
      '732',
      'ContactList must hold at least one contact with an e-mail address or phone',
    ]);
    const dangling = ORDER_PAX.map((p) => ({ ...p, contactInfoRef: 'CTC9' }));
    expect(s.check(orderRq(priced, 'TOK-DEBIT', { passengers: dangling }))).toEqual([
      '732',
      'ContactInfoRef of PAX__ADT01 (CTC9), PAX__CHD01 (CTC9) points to no provided contact',
    ]);
    const noRef = ORDER_PAX.map(({ contactInfoRef: _unused, ...p }) => p);
    expect(s.check(orderRq(priced, 'TOK-DEBIT', { passengers: noRef }))[0]).toBe('732');
  });
});

/**
 * NDC request builders and a validating client for the airline e2e specs:
 * every XML response is checked against the NDC 17.2 XSD of its root.
 */
import { compare } from '../../src/common/decimal';
import {
  type AirShoppingRs,
  type OfferPriceRs,
  type OrderCreateRq,
  type OrderViewRs,
  type Passenger,
  type Qualifier,
  type RequestCommon,
  type SelectedOffer,
  decodeAirShoppingRs,
  decodeOfferPriceRs,
  decodeOrderViewRs,
  encodeAirShoppingRq,
  encodeOfferPriceRq,
  encodeOrderCreateRq,
  encodeOrderRetrieveRq,
  ndcRootName,
} from '../../src/ndc';
import type {
  DayShoppingRs as DayRs,
  OfferPriceSuccess as PricedRs,
  OrderViewSuccess as ViewRs,
} from '../../src/ndc-client';
import { expectValidXsd } from '../support/xsd';
import { AUTH, NDC_TYPE_UTF8, type RawResponse, http, postXml } from './airline-harness';

export const AGENCY = 'AGENCY01';

/** `YYYY-MM-DD`, `days` after today (UTC). */
export function inDays(days: number, from = new Date()): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

export function common(agencyId = AGENCY, currency = 'GBP'): RequestCommon {
  return {
    target: 'Test',
    version: '17.2',
    timeStamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    transactionIdentifier: 'TX-0001',
    correlationId: 'CORR-0001',
    pointOfSaleCountry: 'GB',
    party: { name: 'Saga Travel', agencyId },
    parameters: { languages: ['EN'], overrideCurrency: currency },
  };
}

export const FAMILY: Passenger[] = [
  { passengerId: 'PAX__ADT01', ptc: 'ADT' },
  { passengerId: 'PAX__ADT02', ptc: 'ADT' },
  { passengerId: 'PAX__CHD01', ptc: 'CHD' },
  { passengerId: 'PAX__INF01', ptc: 'INF' },
];

const PEOPLE: Record<string, { birthdate: string; nameTitle?: string; given: string }> = {
  PAX__ADT01: { birthdate: '1984-06-02', nameTitle: 'MR', given: 'John' },
  PAX__ADT02: { birthdate: '1986-01-15', nameTitle: 'MRS', given: 'Anna' },
  PAX__ADT03: { birthdate: '1990-03-03', nameTitle: 'MR', given: 'Carl' },
  PAX__CHD01: { birthdate: '2017-09-30', given: 'Lily' },
  PAX__INF01: { birthdate: inDays(-200).slice(0, 10), given: 'Tom' },
};

/** The passengers with Individual data (and a contact reference on the first). */
export function withIndividuals(passengers: Passenger[], contact = true): Passenger[] {
  return passengers.map((p, i) => {
    const who = PEOPLE[p.passengerId] ?? { birthdate: '1980-01-01', given: 'Pat' };
    return {
      ...p,
      individual: { birthdate: who.birthdate, nameTitle: who.nameTitle, givenNames: [who.given], surname: 'Smith' },
      ...(contact && i === 0 ? { contactInfoRef: 'CTC__1' } : {}),
    };
  });
}

export function daySearchXml(
  legs: { from: string; to: string; date: string }[],
  passengers: Passenger[] = FAMILY,
  agencyId = AGENCY,
  qualifier?: Qualifier,
): string {
  return encodeAirShoppingRq({
    ...common(agencyId),
    ...(qualifier ? { qualifier } : {}),
    coreQuery: {
      kind: 'day',
      originDestinations: legs.map((l) => ({ departureCode: l.from, arrivalCode: l.to, date: l.date })),
    },
    passengers,
  });
}

export function calendarXml(legs: { from: string; to: string; date: string }[], days = 3): string {
  return encodeAirShoppingRq({
    ...common(),
    coreQuery: {
      kind: 'calendar',
      originDestinations: legs.map((l) => ({
        departureCode: l.from,
        arrivalCode: l.to,
        date: l.date,
        daysAfter: days,
        daysBefore: days,
      })),
    },
    passengers: [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }],
  });
}

/** Checks media type and XSD of an XML response and returns its root name. */
export function checkXml(res: RawResponse): string {
  expect(res.headers['content-type']).toBe(NDC_TYPE_UTF8);
  const root = ndcRootName(res.text);
  expectValidXsd(res.text, root);
  return root;
}

export class NdcClient {
  constructor(readonly base: string) {}

  async shop(xml: string): Promise<AirShoppingRs> {
    const res = await postXml(this.base, '/retail/offers', xml);
    expect(checkXml(res)).toBe('AirShoppingRS');
    return decodeAirShoppingRs(res.text);
  }

  async day(
    legs: { from: string; to: string; date: string }[],
    passengers: Passenger[] = FAMILY,
    agencyId = AGENCY,
  ): Promise<DayRs> {
    const rs = await this.shop(daySearchXml(legs, passengers, agencyId));
    if (rs.kind !== 'day') throw new Error(`day search failed: ${JSON.stringify(rs)}`);
    return rs;
  }

  async priceXml(xml: string): Promise<OfferPriceRs> {
    const res = await postXml(this.base, '/retail/offerPrices', xml);
    expect(res.status).toBe(200);
    expect(checkXml(res)).toBe('OfferPriceRS');
    return decodeOfferPriceRs(res.text);
  }

  async price(
    offers: SelectedOffer[],
    passengers: Passenger[],
    opts: { token?: string; agencyId?: string } = {},
  ): Promise<OfferPriceRs> {
    return this.priceXml(
      encodeOfferPriceRq({
        ...common(opts.agencyId),
        offers,
        passengers,
        ...(opts.token ? { paymentForms: [{ key: 'PFM__CARD1', token: opts.token }] } : {}),
      }),
    );
  }

  async orderXml(xml: string): Promise<OrderViewRs> {
    const res = await postXml(this.base, '/retail/orders', xml);
    expect(res.status).toBe(200);
    expect(checkXml(res)).toBe('OrderViewRS');
    return decodeOrderViewRs(res.text);
  }

  /** {@link orderCreateModel} encoded. */
  orderCreateXml(...args: Parameters<NdcClient['orderCreateModel']>): string {
    return encodeOrderCreateRq(this.orderCreateModel(...args));
  }

  orderCreateModel(
    priced: PricedRs,
    token: string,
    passengers: Passenger[],
    agencyId = AGENCY,
    total = priced.pricedOffer.total,
  ): OrderCreateRq {
    const po = priced.pricedOffer;
    return {
      ...common(agencyId),
      securePayment: {
        failUrl: 'https://agency.example/fail',
        termUrl: 'https://agency.example/done',
        ipAddress: '203.0.113.17',
        userAgent: 'Mozilla/5.0',
      },
      offers: [
        {
          offerId: po.offerId,
          owner: po.owner,
          responseId: priced.shoppingResponseId!,
          totalOfferPrice: total,
          offerItems: po.offerItems.map((i) => ({
            offerItemId: i.offerItemId,
            passengerRefs: i.services[0].passengerRefs,
          })),
        },
      ],
      payments: [{ type: 'CC', voucherNumber: token, amount: total! }],
      passengers: withIndividuals(passengers),
      contacts: [
        {
          contactId: 'CTC__1',
          provided: [
            { email: 'john.smith@example.com' },
            { phone: { countryDialingCode: '44', phoneNumber: '7700900123' } },
          ],
        },
      ],
    };
  }

  async orderCreate(priced: PricedRs, token: string, passengers: Passenger[], agencyId = AGENCY): Promise<OrderViewRs> {
    return this.orderXml(this.orderCreateXml(priced, token, passengers, agencyId));
  }

  async retrieve(orderId: string, agencyId = AGENCY): Promise<OrderViewRs> {
    return this.orderXml(encodeOrderRetrieveRq({ ...common(agencyId), orderId, owner: 'ZZ' }));
  }

  getOrders(shoppingResponseId: string, agencyId: string, headers: Record<string, string> = {}): Promise<RawResponse> {
    const q = new URLSearchParams({ shoppingResponseId, agencyID: agencyId });
    return http(`${this.base}/retail/orders?${q.toString()}`, {
      headers: { Authorization: AUTH, Accept: NDC_TYPE_UTF8, ...headers },
    });
  }
}

/** The selection of `offer` for all its items, as OfferPriceRQ wants it. */
export function selectAll(rs: DayRs, offerId: string): SelectedOffer {
  const offer = rs.airlineOffers.flatMap((g) => g.offers).find((o) => o.offerId === offerId);
  if (!offer) throw new Error(`no offer ${offerId}`);
  return {
    offerId,
    owner: offer.owner,
    responseId: rs.shoppingResponseId,
    offerItems: offer.offerItems.map((i) => ({
      offerItemId: i.offerItemId,
      passengerRefs: [...new Set(i.services.flatMap((s) => s.passengerRefs))],
    })),
  };
}

/** The cheapest offer of direction `odKey` (e.g. `OD__LGW_OSL`). */
export function cheapest(rs: DayRs, odKey: string): string {
  const offers = rs.airlineOffers
    .flatMap((g) => g.offers)
    .filter((o) => o.flightsOverview.some((f) => f.odRef === odKey))
    .sort((a, b) => compare(a.totalPrice!.value, b.totalPrice!.value));
  if (offers.length === 0) throw new Error(`no offer for ${odKey}`);
  return offers[0].offerId;
}

export type { DayRs, PricedRs, ViewRs };

export const ONE_ADULT: Passenger[] = [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }];

/** Shops and prices the cheapest one-way offer for `passengers`; returns what OrderCreate needs. */
export async function pricedOffer(
  c: NdcClient,
  opts: { from?: string; to?: string; date?: string; passengers?: Passenger[]; agencyId?: string; token?: string } = {},
): Promise<{ shoppingResponseId: string; priced: PricedRs; passengers: Passenger[] }> {
  const from = opts.from ?? 'LGW';
  const to = opts.to ?? 'JFK';
  const passengers = opts.passengers ?? ONE_ADULT;
  const rs = await c.day([{ from, to, date: opts.date ?? inDays(45) }], passengers, opts.agencyId);
  const priced = await c.price([selectAll(rs, cheapest(rs, `OD__${from}_${to}`))], withIndividuals(passengers, false), {
    agencyId: opts.agencyId,
    token: opts.token,
  });
  if (priced.kind !== 'success') throw new Error(`pricing failed: ${JSON.stringify(priced)}`);
  return { shoppingResponseId: rs.shoppingResponseId, priced, passengers };
}

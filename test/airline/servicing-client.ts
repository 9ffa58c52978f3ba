/**
 * The servicing side of the airline e2e specs (docs/airline-service.md, "Servicing orders"):
 * orders booked or held, OrderReshopRQ, OrderChangeRQ and the lists of an order, over real HTTP in
 * any binding; every answer checked against the XSD of its root and its references.
 */
import type { AirlineClock } from '../../src/airline/airline.ports';
import {
  type CustomerInputRq,
  type Amount,
  type NdcBinding,
  type OrderChangeRq,
  type OrderOffer,
  type OrderReshopRq,
  type OrderReshopRs,
  type OrderViewRs,
  type Passenger,
  type ReshopOffer,
  type SeatAvailabilityRs,
  type ServiceListRs,
  bindingContentType,
  checkReferences,
  decodeCustomerInputRq,
  decodeOrderReshopRs,
  decodeOrderViewRs,
  decodeSeatAvailabilityRs,
  decodeServiceListRs,
  encodeOrderChangeRq,
  encodeOrderCreateRq,
  encodeOrderReshopRq,
  encodeOrderRetrieveRq,
  encodeSeatAvailabilityRq,
  encodeServiceListRq,
  ndcRootName,
  unwrapSoap,
  wrapInBinding,
} from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';
import { NDC_TYPE_UTF8, type RawResponse, createToken, postXml } from './airline-harness';
import {
  AGENCY,
  NdcClient,
  ONE_ADULT,
  type PricedRs,
  type ViewRs,
  common,
  inDays,
  selectAll,
  withIndividuals,
} from './ndc-client';

/** A service clock the specs move (past a guarantee, a payment time limit, an offer's expiry). */
export class MovableClock implements AirlineClock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** Debit (no surcharge), credit (2 % CCF2) and 3-D Secure test cards. */
export const DEBIT = '4000056655665556';
export const CREDIT = '4111111111111111';
export const THREE_DS = '4000000000003220';

/** A day `days` from today on a given weekday (0 Sunday .. 6 Saturday), at least `days` ahead. */
export function nextWeekday(days: number, weekday: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() !== weekday) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** What a booking made for a spec is. */
export interface Booked {
  orderId: string;
  view: ViewRs;
  priced: PricedRs;
  shoppingResponseId: string;
  passengers: Passenger[];
}

/** The XML of an answer (out of any envelope), checked: media type, XSD of `root`, and the answer's root. */
function checked(res: RawResponse, root: string, binding: NdcBinding = 'plain'): string {
  expect(res.headers['content-type']).toBe(bindingContentType(binding, NDC_TYPE_UTF8));
  const xml = binding === 'plain' ? res.text : unwrapSoap(res.text).text;
  expect(ndcRootName(res.text)).toBe(root);
  expectValidXsd(xml, root);
  return res.text;
}

export class ServicingClient {
  readonly c: NdcClient;

  constructor(readonly base: string) {
    this.c = new NdcClient(base);
  }

  /**
   * Shops `from`-`to` on `date` for `passengers`, prices the offer of `priceClass` (the cheapest
   * journey) and orders it paid with `card` (default debit), or held (`card: 'hold'`).
   */
  async book(
    opts: {
      from?: string;
      to?: string;
      date?: string;
      passengers?: Passenger[];
      priceClass?: string;
      card?: string;
      agencyId?: string;
    } = {},
  ): Promise<Booked> {
    const { from = 'LGW', to = 'OSL', passengers = ONE_ADULT, priceClass = 'ECONOMY', agencyId = AGENCY } = opts;
    const rs = await this.c.day([{ from, to, date: opts.date ?? inDays(60) }], passengers, agencyId);
    const offer = rs.airlineOffers
      .flatMap((g) => g.offers)
      .find(
        (o) =>
          o.flightsOverview[0].priceClassRef === `PC__${priceClass}` &&
          o.flightsOverview[0].flightKey.split('_').length === 4,
      );
    if (!offer) throw new Error(`no ${priceClass} offer`);
    const hold = opts.card === 'hold';
    const token = hold ? undefined : await createToken(this.base, opts.card ?? DEBIT);
    const priced = await this.c.price([selectAll(rs, offer.offerId)], withIndividuals(passengers, false), {
      agencyId,
      ...(token && opts.card === CREDIT ? { token } : {}),
    });
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    const model = this.c.orderCreateModel(priced, token ?? 'none', passengers, agencyId);
    const rq = hold ? { ...model, payments: [] } : model;
    const view = await this.c.orderXml(encodeOrderCreateRq(rq));
    if (view.kind !== 'success') throw new Error(JSON.stringify(view));
    return { orderId: view.orders[0].orderId, view, priced, shoppingResponseId: rs.shoppingResponseId, passengers };
  }

  /** Posts an OrderReshopRQ (XML `xml`, or the model encoded) in `binding`; its OrderReshopRS, checked. */
  async reshop(rq: OrderReshopRq | string, binding: NdcBinding = 'plain'): Promise<OrderReshopRs> {
    const xml = typeof rq === 'string' ? rq : encodeOrderReshopRq(rq);
    if (typeof rq !== 'string') expectValidXsd(xml, 'OrderReshopRQ');
    const res = await this.post(xml, binding);
    const rs = decodeOrderReshopRs(checked(res, 'OrderReshopRS', binding));
    expect(checkReferences(rs)).toEqual([]);
    return rs;
  }

  /** Posts an OrderChangeRQ; its OrderViewRS (or the CustomerInputRQ of a 3-D Secure card), checked. */
  async change(rq: OrderChangeRq, binding: NdcBinding = 'plain'): Promise<OrderViewRs | CustomerInputRq> {
    const xml = encodeOrderChangeRq(rq);
    expectValidXsd(xml, 'OrderChangeRQ');
    const res = await this.post(xml, binding);
    const root = ndcRootName(res.text);
    if (root === 'CustomerInputRQ') return decodeCustomerInputRq(checked(res, root, binding));
    const rs = decodeOrderViewRs(checked(res, 'OrderViewRS', binding));
    if (rs.kind === 'success') expect(checkReferences(rs)).toEqual([]);
    return rs;
  }

  /** {@link change} of a request that must answer an OrderViewRS. */
  async changed(rq: OrderChangeRq, binding: NdcBinding = 'plain'): Promise<OrderViewRs> {
    const rs = await this.change(rq, binding);
    if ('securePayments' in rs) throw new Error('a 3-D Secure challenge where an OrderViewRS was expected');
    return rs;
  }

  /** The order's version as its OrderViewRS (OrderRetrieveRQ) writes it: the root's `SequenceNmbr`. */
  async version(orderId: string, agencyId = AGENCY): Promise<number | undefined> {
    const res = await postXml(
      this.base,
      '/retail/orders',
      encodeOrderRetrieveRq({ ...common(agencyId), orderId, owner: 'ZZ' }),
    );
    const m = /<OrderViewRS[^>]*\sSequenceNmbr="(\d+)"/.exec(checked(res, 'OrderViewRS'));
    return m ? Number(m[1]) : undefined;
  }

  /** The order's ServiceListRS. */
  async serviceList(orderId: string, agencyId = AGENCY): Promise<ServiceListRs> {
    const xml = encodeServiceListRq({
      ...common(agencyId),
      order: { orderId, owner: 'ZZ' },
      offers: [],
      passengers: [],
    });
    const res = await postXml(this.base, '/retail/services', xml);
    return decodeServiceListRs(checked(res, 'ServiceListRS'));
  }

  /** The order's SeatAvailabilityRS. */
  async seatMaps(orderId: string, agencyId = AGENCY): Promise<SeatAvailabilityRs> {
    const xml = encodeSeatAvailabilityRq({
      ...common(agencyId),
      order: { orderId, owner: 'ZZ', passengerIds: [], segmentIds: [] },
      passengers: [],
    });
    const res = await postXml(this.base, '/retail/availability/seat', xml);
    return decodeSeatAvailabilityRs(checked(res, 'SeatAvailabilityRS'));
  }

  private post(xml: string, binding: NdcBinding): Promise<RawResponse> {
    return postXml(this.base, '/retail/orders', wrapInBinding(xml, binding, { sellerId: AGENCY }), {
      'Content-Type': bindingContentType(binding, NDC_TYPE_UTF8),
    });
  }
}

/** An OrderReshopRQ for `orderId` (TransactionIdentifier `tx`). */
export function reshopRq(
  orderId: string,
  action: OrderReshopRq['action'],
  opts: { agencyId?: string; tx?: string } = {},
): OrderReshopRq {
  return { ...common(opts.agencyId), transactionIdentifier: opts.tx ?? 'TX-RESHOP', orderId, action, passengers: [] };
}

/** An OrderChangeRQ for `orderId`: what `parts` set, nothing else. */
export function changeRq(
  orderId: string,
  parts: Partial<
    Pick<OrderChangeRq, 'acceptOffers' | 'deleteOrderItemIds' | 'acceptRepricedOrder' | 'payments' | 'securePayment'>
  > & {
    tx?: string;
    agencyId?: string;
  } = {},
): OrderChangeRq {
  const { tx, agencyId, ...rest } = parts;
  return {
    ...common(agencyId),
    transactionIdentifier: tx ?? 'TX-CHANGE',
    order: { orderId, owner: 'ZZ' },
    acceptOffers: [],
    deleteOrderItemIds: [],
    payments: [],
    passengers: [],
    contacts: [],
    ...rest,
  };
}

/** One card payment of `amount` by token `token`. */
export function cardPayment(token: string, amount: Amount): OrderChangeRq['payments'] {
  return [{ type: 'CC', voucherNumber: token, amount }];
}

/**
 * An OrderChangeRQ's AcceptOffer of a reshop offer (by its id and the response's
 * ReShoppingResponseID): its items (AddOfferItems, else DeleteOfferItems) with their passengers,
 * as the XSD wants at least one OfferItem.
 */
export function acceptReshop(offer: ReshopOffer, responseId: string): OrderOffer {
  const items = offer.addItems.length > 0 ? offer.addItems : offer.deleteItems;
  return {
    offerId: offer.offerId,
    owner: offer.owner,
    responseId,
    offerItems: items.map((i) => ({
      offerItemId: i.offerItemId,
      passengerRefs: 'services' in i ? [...new Set(i.services.flatMap((x) => x.passengerRefs))] : [],
    })),
  };
}

/** The error code of an answer, `success`, or `challenge` (a CustomerInputRQ). */
export function outcome(rs: object): string {
  if ('securePayments' in rs) return 'challenge';
  const answer = rs as { kind: string; errors?: { code: string }[] };
  return answer.kind === 'error' ? answer.errors![0]!.code : 'success';
}

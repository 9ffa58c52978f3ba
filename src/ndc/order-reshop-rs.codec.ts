/**
 * OrderReshopRS (NDC 17.2): `Document`, then either `Success` (+ `Warnings`) and `Response`, or
 * `Errors`. The Response: `ReShoppingResponseID`, then one of `ReshopOffers/ReshopOffer` (change
 * offers and refund quotes: TimeLimits/OfferExpiration, TotalPrice, Penalty, FlightsOverview,
 * DeleteOfferItem and AddOfferItem, each with its ReshopDifferential), `RepricedOffer` or
 * `NoPriceChangeInd`; then `DataLists` and `Metadata`.
 */
import type { Amount } from './ndc.model';
import type {
  OrderReshopResult,
  OrderReshopRs,
  RepricedOffer,
  RepricedOfferItem,
  ReshopAddItem,
  ReshopDeleteItem,
  ReshopDifferential,
  ReshopOffer,
} from './servicing.model';
import {
  decodeFareDetail,
  decodeFlightsOverview,
  decodeOfferItem,
  decodeTotalPriceDetail,
  encodeFareDetail,
  encodeFlightsOverview,
  encodeOfferItem,
  encodeTotalPriceDetail,
} from './air-shopping-rs.codec';
import { decodeDataLists, decodePenalty, encodeDataLists, encodePenalty } from './data-lists.codec';
import { decodeMetadata, encodeMetadata, messageCurrency } from './metadata.codec';
import { NdcDecodeError } from './ndc-decode-error';
import { decodePrice } from './price.codec';
import { decodeResponseHead, encodeDocumentResponse } from './response-frame';
import {
  addEl,
  addMoney,
  attr,
  decodeBoolean,
  decodeMoney,
  decodeRefs,
  domEl,
  domMoney,
  domOf,
  encodeRefs,
  many,
  one,
  opt,
  optText,
  reqAttr,
  text,
  type DomElement,
  type EncodeOptions,
  type MessageCurrency,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'OrderReshopRS';

/** The parts of a ReshopDifferential, in XSD order, and the model field each is. */
const DIFFERENTIAL_PARTS = [
  ['OriginalOrderItem', 'original'],
  ['NewOfferItem', 'newOffer'],
  ['PenaltyAmount', 'penalty'],
  ['FeesAmount', 'fees'],
] as const;

/** Encodes an OrderReshopRS (Document first in both forms). Throws a plain `Error` for a model the schema cannot carry. */
export function encodeOrderReshopRs(msg: OrderReshopRs, opts?: EncodeOptions): string {
  return encodeDocumentResponse(ROOT, msg, opts, (root, success) => {
    const resp = addEl(root, 'Response');
    if (success.reshopResponseId !== undefined)
      addEl(addEl(resp, 'ReShoppingResponseID'), 'ResponseID', success.reshopResponseId);
    encodeResult(resp, success.result);
    encodeDataLists(resp, success.dataLists);
    encodeMetadata(resp, success.metadata, { shopping: false });
  });
}

/** Decodes an OrderReshopRS (success or error form). Throws {@link NdcDecodeError}. */
export function decodeOrderReshopRs(xml: string | Buffer, opts?: ParseOptions): OrderReshopRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const rPath = `${path}/Response`;
  const resp = one(node, 'Response', path);
  const metadata = decodeMetadata(opt(resp, 'Metadata'), `${rPath}/Metadata`);
  const out: OrderReshopRs = {
    ...rc,
    kind: 'success',
    result: decodeResult(resp, rPath, messageCurrency(metadata)),
    dataLists: decodeDataLists(opt(resp, 'DataLists'), `${rPath}/DataLists`),
    metadata,
  };
  const rsid = opt(resp, 'ReShoppingResponseID');
  const responseId = rsid === undefined ? undefined : optText(rsid, 'ResponseID');
  if (responseId !== undefined && responseId !== '') out.reshopResponseId = responseId;
  return out;
}

// ------------------------------------------------------------------ result

function encodeResult(resp: XMLBuilder, result: OrderReshopResult): void {
  switch (result.kind) {
    case 'offers': {
      const offers = addEl(resp, 'ReshopOffers');
      for (const o of result.offers) encodeReshopOffer(offers, o);
      return;
    }
    case 'repriced':
      encodeRepricedOffer(resp, result.offer);
      return;
    case 'noPriceChange':
      addEl(resp, 'NoPriceChangeInd', String(result.indicator));
  }
}

/** The Response's choice: ReshopOffers, RepricedOffer or NoPriceChangeInd (one is required). */
function decodeResult(resp: XNode, path: string, currency: MessageCurrency): OrderReshopResult {
  const offers = opt(resp, 'ReshopOffers');
  if (offers !== undefined) {
    const oPath = `${path}/ReshopOffers`;
    return {
      kind: 'offers',
      offers: many(offers, 'ReshopOffer').map((o, i) =>
        decodeReshopOffer(o, `${oPath}/ReshopOffer[${i + 1}]`, currency),
      ),
    };
  }
  const repriced = opt(resp, 'RepricedOffer');
  if (repriced !== undefined)
    return { kind: 'repriced', offer: decodeRepricedOffer(repriced, `${path}/RepricedOffer`, currency) };
  const ind = opt(resp, 'NoPriceChangeInd');
  if (ind === undefined)
    throw new NdcDecodeError(
      'MISSING',
      `${path}/ReshopOffers`,
      'Response has no ReshopOffers, RepricedOffer or NoPriceChangeInd',
    );
  return { kind: 'noPriceChange', indicator: decodeBoolean(text(ind), `${path}/NoPriceChangeInd`) };
}

// ------------------------------------------------------------------ ReshopOffer

/** `<ReshopOffer>`: TimeLimits, TotalPrice, Penalty, FlightsOverview, DeleteOfferItems, AddOfferItems (XSD order). */
function encodeReshopOffer(parent: XMLBuilder, o: ReshopOffer): void {
  const el = addEl(parent, 'ReshopOffer').att('OfferID', o.offerId).att('Owner', o.owner);
  if (o.expiresAt !== undefined) addEl(addEl(el, 'TimeLimits'), 'OfferExpiration').att('DateTime', o.expiresAt);
  if (o.totalPrice !== undefined) addMoney(addEl(el, 'TotalPrice'), 'SimpleCurrencyPrice', o.totalPrice);
  if (o.penalty !== undefined) encodePenalty(el, o.penalty);
  encodeFlightsOverview(el, o.flightsOverview);
  for (const d of o.deleteItems) encodeDeleteItem(domOf(el), d);
  for (const a of o.addItems) encodeAddItem(el, a);
}

function decodeReshopOffer(node: XNode, path: string, currency: MessageCurrency): ReshopOffer {
  const o: ReshopOffer = {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    flightsOverview: decodeFlightsOverview(node, path),
    deleteItems: many(node, 'DeleteOfferItem').map((d, i) =>
      decodeDeleteItem(d, `${path}/DeleteOfferItem[${i + 1}]`, currency),
    ),
    addItems: many(node, 'AddOfferItem').map((a, i) => decodeAddItem(a, `${path}/AddOfferItem[${i + 1}]`, currency)),
  };
  const limits = opt(node, 'TimeLimits');
  const expiration = limits === undefined ? undefined : opt(limits, 'OfferExpiration');
  const expiresAt =
    expiration === undefined ? undefined : (attr(expiration, 'DateTime') ?? attr(expiration, 'Timestamp'));
  if (expiresAt !== undefined && expiresAt !== '') o.expiresAt = expiresAt;
  const tp = opt(node, 'TotalPrice');
  if (tp !== undefined) {
    const { amount, other } = decodePrice(tp, `${path}/TotalPrice`, currency);
    if (amount !== undefined) o.totalPrice = amount;
    if (other !== undefined) o.otherPrice = other;
  }
  const penalty = opt(node, 'Penalty');
  if (penalty !== undefined) o.penalty = decodePenalty(penalty, `${path}/Penalty`);
  return o;
}

function encodeDeleteItem(parent: DomElement, d: ReshopDeleteItem): void {
  const el = domEl(parent, 'DeleteOfferItem');
  el.setAttribute('OfferItemID', d.offerItemId);
  el.setAttribute('OrderItemID', d.orderItemId);
  if (d.differential !== undefined) encodeDifferential(el, d.differential);
}

function decodeDeleteItem(node: XNode, path: string, currency: MessageCurrency): ReshopDeleteItem {
  const d: ReshopDeleteItem = {
    offerItemId: reqAttr(node, 'OfferItemID', path),
    orderItemId: reqAttr(node, 'OrderItemID', path),
  };
  const diff = opt(node, 'ReshopDifferential');
  if (diff !== undefined) d.differential = decodeDifferential(diff, `${path}/ReshopDifferential`, currency);
  return d;
}

/** `<AddOfferItem OfferItemID OrderItemIDs>`: an OfferItem's content (prices as `SimpleCurrencyPrice`), then its ReshopDifferential. */
function encodeAddItem(parent: XMLBuilder, a: ReshopAddItem): void {
  const el = encodeOfferItem(parent, a, 'simple', 'AddOfferItem');
  if (a.replacesOrderItemIds !== undefined) el.setAttribute('OrderItemIDs', encodeRefs(a.replacesOrderItemIds));
  if (a.differential !== undefined) encodeDifferential(el, a.differential);
}

function decodeAddItem(node: XNode, path: string, currency: MessageCurrency): ReshopAddItem {
  const a: ReshopAddItem = decodeOfferItem(node, path, currency);
  const replaces = attr(node, 'OrderItemIDs');
  if (replaces !== undefined) a.replacesOrderItemIds = decodeRefs(replaces);
  const diff = opt(node, 'ReshopDifferential');
  if (diff !== undefined) a.differential = decodeDifferential(diff, `${path}/ReshopDifferential`, currency);
  return a;
}

// ------------------------------------------------------------------ ReshopDifferential

/** `<ReshopDifferential>`: each part as `<Part><Total><Amount Code>`, then `ReshopDue/ByPassenger|ByAirline`. */
function encodeDifferential(parent: DomElement, d: ReshopDifferential): void {
  const el = domEl(parent, 'ReshopDifferential');
  for (const [name, field] of DIFFERENTIAL_PARTS) {
    const amount = d[field];
    if (amount !== undefined) domMoney(domEl(domEl(el, name), 'Total'), 'Amount', amount);
  }
  const total = domEl(
    domEl(domEl(el, 'ReshopDue'), d.due.payer === 'passenger' ? 'ByPassenger' : 'ByAirline'),
    'Total',
  );
  if (d.due.amount !== undefined) domMoney(total, 'Amount', d.due.amount);
}

function decodeDifferential(node: XNode, path: string, currency: MessageCurrency): ReshopDifferential {
  const duePath = `${path}/ReshopDue`;
  const due = one(node, 'ReshopDue', path);
  const byAirline = opt(due, 'ByAirline');
  const by = byAirline ?? one(due, 'ByPassenger', duePath);
  const byPath = `${duePath}/${byAirline !== undefined ? 'ByAirline' : 'ByPassenger'}`;
  const d: ReshopDifferential = { due: { payer: byAirline !== undefined ? 'airline' : 'passenger' } };
  const dueAmount = totalAmount(by, byPath, currency);
  if (dueAmount !== undefined) d.due.amount = dueAmount;
  for (const [name, field] of DIFFERENTIAL_PARTS) {
    const part = opt(node, name);
    const amount = part === undefined ? undefined : totalAmount(part, `${path}/${name}`, currency);
    if (amount !== undefined) d[field] = amount;
  }
  return d;
}

/** `Total/Amount` of `node` (TotalFareTransactionType: `Total` required, `Amount` optional). */
function totalAmount(node: XNode, path: string, currency: MessageCurrency): Amount | undefined {
  const tPath = `${path}/Total`;
  const amount = opt(one(node, 'Total', path), 'Amount');
  return amount === undefined ? undefined : decodeMoney(amount, `${tPath}/Amount`, currency);
}

// ------------------------------------------------------------------ RepricedOffer

/** `<RepricedOffer>`: per item TotalPriceDetail, FareDetails, and the OriginalOrderItem's. */
function encodeRepricedOffer(parent: XMLBuilder, o: RepricedOffer): void {
  if (o.items.length === 0) throw new Error(`RepricedOffer ${o.offerId}: at least one item is required`);
  const el = domOf(addEl(parent, 'RepricedOffer').att('OfferID', o.offerId).att('Owner', o.owner));
  for (const item of o.items) {
    const x = domEl(el, 'RepricedOfferItem');
    x.setAttribute('OfferItemID', item.offerItemId);
    encodeTotalPriceDetail(x, item.priceDetail, 'simple', item.offerItemId);
    for (const fd of item.fareDetails) encodeFareDetail(x, fd);
    const original = domEl(x, 'OriginalOrderItem');
    original.setAttribute('OrderItemID', item.originalOrderItemId);
    encodeTotalPriceDetail(original, item.originalPriceDetail, 'simple', item.originalOrderItemId);
  }
}

function decodeRepricedOffer(node: XNode, path: string, currency: MessageCurrency): RepricedOffer {
  return {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    items: many(node, 'RepricedOfferItem').map((x, i) =>
      decodeRepricedItem(x, `${path}/RepricedOfferItem[${i + 1}]`, currency),
    ),
  };
}

function decodeRepricedItem(node: XNode, path: string, currency: MessageCurrency): RepricedOfferItem {
  const oPath = `${path}/OriginalOrderItem`;
  const original = one(node, 'OriginalOrderItem', path);
  return {
    offerItemId: reqAttr(node, 'OfferItemID', path),
    priceDetail: decodeTotalPriceDetail(one(node, 'TotalPriceDetail', path), `${path}/TotalPriceDetail`, currency),
    fareDetails: many(node, 'FareDetail').map((f, i) => decodeFareDetail(f, `${path}/FareDetail[${i + 1}]`, currency)),
    originalOrderItemId: reqAttr(original, 'OrderItemID', oPath),
    originalPriceDetail: decodeTotalPriceDetail(
      one(original, 'TotalPriceDetail', oPath),
      `${oPath}/TotalPriceDetail`,
      currency,
    ),
  };
}

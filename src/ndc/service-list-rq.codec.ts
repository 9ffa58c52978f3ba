/**
 * ServiceListRQ: the extras for offers, by `ShoppingResponseID` and `Query/Offers/Offer` (OfferID
 * and the OfferItemIDs, each with its Owner), or for an existing order (`Query/OrderID@Owner`),
 * with the PassengerList.
 */
import type { ServiceListOffer, ServiceListRq } from './extras.model';
import type { OrderRef } from './ndc.model';
import { decodePassengerList, decodeRequestCommon, encodePassengerList, encodeRequestCommon } from './common.codec';
import { NdcDecodeError } from './ndc-decode-error';
import {
  addEl,
  endMessage,
  many,
  one,
  opt,
  parseNdc,
  reqAttr,
  reqText,
  text,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'ServiceListRQ';

/** Serialises a ServiceListRQ (valid against ServiceListRQ.xsd; `parameters` are not written). */
export function encodeServiceListRq(rq: ServiceListRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  encodeShoppingResponseId(root, rq.shoppingResponseId);
  if (rq.order !== undefined && rq.offers.length > 0)
    throw new Error('ServiceListRQ: Query names offers or an order, not both (XSD choice)');
  if (rq.order !== undefined) encodeOrderId(addEl(root, 'Query'), rq.order);
  if (rq.offers.length > 0) {
    const offers = addEl(addEl(root, 'Query'), 'Offers');
    for (const o of rq.offers) encodeServiceListOffer(offers, o);
  }
  if (rq.passengers.length > 0) encodePassengerList(addEl(root, 'DataLists'), rq.passengers);
  return endMessage(root);
}

/** Parses and decodes a ServiceListRQ; throws {@link NdcDecodeError}. */
export function decodeServiceListRq(xml: string | Buffer, opts?: ParseOptions): ServiceListRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const query = opt(node, 'Query');
  const offers = query === undefined ? undefined : opt(query, 'Offers');
  const offersPath = `${path}/Query/Offers`;
  const rq: ServiceListRq = {
    ...decodeRequestCommon(node, path),
    offers:
      offers === undefined
        ? []
        : many(offers, 'Offer').map((o, i) => decodeServiceListOffer(o, `${offersPath}/Offer[${i + 1}]`)),
    passengers: decodeRequestPassengers(node, path),
  };
  const sr = decodeShoppingResponseId(node, path);
  if (sr !== undefined) rq.shoppingResponseId = sr;
  const orderId = query === undefined ? undefined : opt(query, 'OrderID');
  if (orderId !== undefined) rq.order = decodeOrderId(orderId, `${path}/Query/OrderID`);
  return rq;
}

/** `<OrderID Owner="XS">ORD1</OrderID>` (OrderID_Type: the id as text, the owner required). */
export function encodeOrderId(parent: XMLBuilder, order: OrderRef): void {
  addEl(parent, 'OrderID', order.orderId).att('Owner', order.owner);
}

/** Reads an `OrderID` element of OrderID_Type (text and required `@Owner`). */
export function decodeOrderId(node: XNode, path: string): OrderRef {
  const orderId = text(node);
  if (orderId === '') throw new NdcDecodeError('MISSING', path, 'OrderID is empty');
  return { orderId, owner: reqAttr(node, 'Owner', path) };
}

function encodeServiceListOffer(parent: XMLBuilder, o: ServiceListOffer): void {
  if (o.offerItemIds.length === 0) throw new Error(`ServiceListRQ offer ${o.offerId}: at least one item is required`);
  const el = addEl(parent, 'Offer');
  addEl(el, 'OfferID', o.offerId).att('Owner', o.owner);
  const items = addEl(el, 'OfferItemIDs');
  for (const id of o.offerItemIds) addEl(items, 'OfferItemID', id).att('Owner', o.owner);
}

function decodeServiceListOffer(node: XNode, path: string): ServiceListOffer {
  const id = one(node, 'OfferID', path);
  const offerId = text(id);
  if (offerId === '') throw new NdcDecodeError('MISSING', `${path}/OfferID`, 'OfferID is empty');
  const itemsPath = `${path}/OfferItemIDs`;
  const ids = many(one(node, 'OfferItemIDs', path), 'OfferItemID').map((n, i) => {
    const v = text(n);
    if (v === '') throw new NdcDecodeError('MISSING', `${itemsPath}/OfferItemID[${i + 1}]`, 'OfferItemID is empty');
    return v;
  });
  if (ids.length === 0) throw new NdcDecodeError('MISSING', `${itemsPath}/OfferItemID`, 'no OfferItemID');
  return { offerId, owner: reqAttr(id, 'Owner', `${path}/OfferID`), offerItemIds: ids };
}

/** `<ShoppingResponseID><ResponseID>` when `id` is set (ServiceListRQ, SeatAvailabilityRQ). */
export function encodeShoppingResponseId(parent: XMLBuilder, id: string | undefined): void {
  if (id !== undefined) addEl(addEl(parent, 'ShoppingResponseID'), 'ResponseID', id);
}

/** `ShoppingResponseID/ResponseID` of `node`, or undefined without ShoppingResponseID. */
export function decodeShoppingResponseId(node: XNode, path: string): string | undefined {
  const sr = opt(node, 'ShoppingResponseID');
  return sr === undefined ? undefined : reqText(sr, 'ResponseID', `${path}/ShoppingResponseID`);
}

/** `DataLists/PassengerList` of a request, `[]` without it. */
export function decodeRequestPassengers(node: XNode, path: string): ServiceListRq['passengers'] {
  const lists = opt(node, 'DataLists');
  const pax = lists === undefined ? undefined : opt(lists, 'PassengerList');
  return pax === undefined ? [] : decodePassengerList(pax, `${path}/DataLists/PassengerList`);
}

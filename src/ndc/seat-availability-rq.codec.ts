/**
 * SeatAvailabilityRQ: the seat maps of an offer, by `ShoppingResponseID` and `Query/Offer`
 * (OfferID, Owner, ResponseID, SegmentIDs, PassengerIDs), or of an existing order
 * (`Query/Order`: OrderID, Owner, PassengerIDs, SegmentIDs), with the PassengerList.
 */
import type { SeatAvailabilityOffer, SeatAvailabilityOrder, SeatAvailabilityRq } from './extras.model';
import { decodeRequestCommon, encodePassengerList, encodeRequestCommon } from './common.codec';
import { decodeRequestPassengers, decodeShoppingResponseId, encodeShoppingResponseId } from './service-list-rq.codec';
import {
  addEl,
  endMessage,
  many,
  opt,
  parseNdc,
  reqAttr,
  text,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'SeatAvailabilityRQ';

/** Serialises a SeatAvailabilityRQ (valid against SeatAvailabilityRQ.xsd; `parameters` are not written). */
export function encodeSeatAvailabilityRq(rq: SeatAvailabilityRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  encodeShoppingResponseId(root, rq.shoppingResponseId);
  if (rq.offer !== undefined && rq.order !== undefined)
    throw new Error('SeatAvailabilityRQ: Query names an offer or an order, not both (XSD choice)');
  if (rq.offer !== undefined) encodeOffer(addEl(root, 'Query'), rq.offer);
  if (rq.order !== undefined) encodeOrder(addEl(root, 'Query'), rq.order);
  if (rq.passengers.length > 0) encodePassengerList(addEl(root, 'DataLists'), rq.passengers);
  return endMessage(root);
}

/** Parses and decodes a SeatAvailabilityRQ; throws {@link NdcDecodeError}. */
export function decodeSeatAvailabilityRq(xml: string | Buffer, opts?: ParseOptions): SeatAvailabilityRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const rq: SeatAvailabilityRq = {
    ...decodeRequestCommon(node, path),
    passengers: decodeRequestPassengers(node, path),
  };
  // The request's Parameters are a SeatAvailReqParamsType, not the shopping ones decodeRequestCommon reads.
  delete rq.parameters;
  const sr = decodeShoppingResponseId(node, path);
  if (sr !== undefined) rq.shoppingResponseId = sr;
  const query = opt(node, 'Query');
  const offer = query === undefined ? undefined : opt(query, 'Offer');
  if (offer !== undefined) rq.offer = decodeOffer(offer, `${path}/Query/Offer`);
  const order = query === undefined ? undefined : opt(query, 'Order');
  if (order !== undefined) rq.order = decodeOrder(order, `${path}/Query/Order`);
  return rq;
}

/** `<Order OrderID Owner>` with its PassengerIDs, then SegmentIDs (the XSD's order). */
function encodeOrder(parent: XMLBuilder, o: SeatAvailabilityOrder): void {
  const el = addEl(parent, 'Order').att('OrderID', o.orderId).att('Owner', o.owner);
  for (const p of o.passengerIds) addEl(el, 'PassengerID', p);
  for (const s of o.segmentIds) addEl(el, 'SegmentID', s);
}

function decodeOrder(node: XNode, path: string): SeatAvailabilityOrder {
  return {
    orderId: reqAttr(node, 'OrderID', path),
    owner: reqAttr(node, 'Owner', path),
    passengerIds: texts(node, 'PassengerID'),
    segmentIds: texts(node, 'SegmentID'),
  };
}

/** The non-empty texts of the `name` children. */
function texts(node: XNode, name: string): string[] {
  return many(node, name)
    .map(text)
    .filter((s) => s !== '');
}

function encodeOffer(parent: XMLBuilder, o: SeatAvailabilityOffer): void {
  const el = addEl(parent, 'Offer').att('OfferID', o.offerId).att('Owner', o.owner).att('ResponseID', o.responseId);
  for (const s of o.segmentIds) addEl(el, 'SegmentID', s);
  for (const p of o.passengerIds) addEl(el, 'PassengerID', p);
}

function decodeOffer(node: XNode, path: string): SeatAvailabilityOffer {
  return {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    responseId: reqAttr(node, 'ResponseID', path),
    segmentIds: texts(node, 'SegmentID'),
    passengerIds: texts(node, 'PassengerID'),
  };
}

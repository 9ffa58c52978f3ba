/**
 * OrderCancelRQ (NDC 17.2): the request preamble, then optional
 * `OrderCancelParameters/Reason`, optional `ExpectedRefundAmount/Total`, and
 * `Query` naming the order (`Order@OrderID/@Owner`, optional in the XSD) and/or
 * its `BookingReferences`.
 */
import type { OrderCancelRq } from './ndc.model';
import { decodeRequestCommon, encodeRequestCommon } from './common.codec';
import {
  addEl,
  addMoney,
  decodeMoney,
  endMessage,
  many,
  one,
  opt,
  optText,
  parseNdc,
  reqAttr,
  reqText,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
} from './xml';

const ROOT = 'OrderCancelRQ';

type BookingRefs = NonNullable<OrderCancelRq['bookingReferences']>;

/** `<BookingReferences>`: per reference `ID`, then `AirlineID` or `OtherID` (exactly one, else a plain `Error`). */
export function encodeBookingReferences(parent: XMLBuilder, refs: BookingRefs): void {
  const el = addEl(parent, 'BookingReferences');
  for (const r of refs) {
    const b = addEl(el, 'BookingReference');
    addEl(b, 'ID', r.id);
    if ((r.airlineId === undefined) === (r.otherId === undefined)) {
      throw new Error(`BookingReference ${r.id}: exactly one of airlineId and otherId must be set`);
    }
    if (r.airlineId !== undefined) addEl(b, 'AirlineID', r.airlineId);
    else addEl(b, 'OtherID', r.otherId);
  }
}

/** Reads `<BookingReferences>` (`AirlineID` and `OtherID` both optional when reading). */
export function decodeBookingReferences(node: XNode, path: string): BookingRefs {
  return many(node, 'BookingReference').map((b, i) => {
    const p = `${path}/BookingReference[${i + 1}]`;
    const r: BookingRefs[number] = { id: reqText(b, 'ID', p) };
    const airline = optText(b, 'AirlineID');
    if (airline !== undefined && airline !== '') r.airlineId = airline;
    const other = optText(b, 'OtherID');
    if (other !== undefined && other !== '') r.otherId = other;
    return r;
  });
}

/** Serialises an OrderCancelRQ (valid against OrderCancelRQ.xsd). Throws a plain `Error` for a model the schema cannot represent. */
export function encodeOrderCancelRq(rq: OrderCancelRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  if (rq.reason !== undefined) addEl(addEl(root, 'OrderCancelParameters'), 'Reason', rq.reason);
  if (rq.expectedRefundAmount !== undefined)
    addMoney(addEl(root, 'ExpectedRefundAmount'), 'Total', rq.expectedRefundAmount);
  const query = addEl(root, 'Query');
  if (rq.order === undefined && !rq.bookingReferences?.length)
    throw new Error('OrderCancelRQ needs an order or booking references');
  if (rq.order !== undefined) addEl(query, 'Order').att('OrderID', rq.order.orderId).att('Owner', rq.order.owner);
  if (rq.bookingReferences?.length) encodeBookingReferences(query, rq.bookingReferences);
  return endMessage(root);
}

/**
 * Parses and decodes an OrderCancelRQ; throws `NdcDecodeError`. `order` is
 * absent when the query names the order by booking reference only (or names
 * nothing: the XSD allows an empty `Query`, so that is the caller's business error);
 * `ExpectedRefundAmount` given as `Equivalent` instead of `Total` is ignored.
 */
export function decodeOrderCancelRq(xml: string | Buffer, opts?: ParseOptions): OrderCancelRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const rq: OrderCancelRq = decodeRequestCommon(node, path);
  const params = opt(node, 'OrderCancelParameters');
  const reason = params === undefined ? undefined : optText(params, 'Reason');
  if (reason !== undefined && reason !== '') rq.reason = reason;
  const expected = opt(node, 'ExpectedRefundAmount');
  const total = expected === undefined ? undefined : opt(expected, 'Total');
  if (total !== undefined) rq.expectedRefundAmount = decodeMoney(total, `${path}/ExpectedRefundAmount/Total`);
  const queryPath = `${path}/Query`;
  const query = one(node, 'Query', path);
  const order = opt(query, 'Order');
  if (order !== undefined) {
    const p = `${queryPath}/Order`;
    rq.order = { orderId: reqAttr(order, 'OrderID', p), owner: reqAttr(order, 'Owner', p) };
  }
  const refs = opt(query, 'BookingReferences');
  if (refs !== undefined) rq.bookingReferences = decodeBookingReferences(refs, `${queryPath}/BookingReferences`);
  return rq;
}

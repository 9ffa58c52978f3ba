/**
 * OrderChangeRQ (NDC 17.2): the request preamble, `OrderChangeParameters` (the 3-D Secure alert
 * of a payment, as OrderCreateRQ's, and a reason), then `Query`: `OrderID@Owner`, the servicing
 * choice (`OrderServicing` with `AcceptOffer/Offer` and `Delete/OrderItemID`, or
 * `AcceptRepricedOrder/ResponseID`), `Payments/Payment` (card token as voucher) and
 * `OrderChangeMetadata` (its currency metadata gives amounts without `Code` their currency); then
 * `DataLists` with passengers and contacts.
 */
import type { OrderChangeRq } from './servicing.model';
import {
  decodeContactList,
  decodePassengerList,
  decodeRequestCommon,
  encodeContactList,
  encodePassengerList,
  encodeRequestCommon,
} from './common.codec';
import { decodeMetadata, messageCurrency } from './metadata.codec';
import {
  decodeOrderOffer,
  decodeOrderPayments,
  encodeOrderOffer,
  encodeOrderPayments,
  encodeSecurePaymentAlert,
  findSecurePaymentAlert,
} from './order-create-rq.codec';
import {
  addEl,
  attr,
  endMessage,
  many,
  one,
  opt,
  optValue,
  parseNdc,
  reqText,
  text,
  type EncodeOptions,
  type MessageCurrency,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'OrderChangeRQ';

/**
 * Serialises an OrderChangeRQ (valid against OrderChangeRQ.xsd; `parameters` are not written).
 * Throws a plain `Error` for `acceptRepricedOrder` beside offers or deletions (an XSD choice).
 */
export function encodeOrderChangeRq(rq: OrderChangeRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  if (rq.securePayment !== undefined || rq.reason !== undefined) {
    const params = addEl(root, 'OrderChangeParameters');
    if (rq.securePayment !== undefined) encodeSecurePaymentAlert(params, rq.securePayment);
    if (rq.reason !== undefined) addEl(params, 'Reason', rq.reason);
  }
  const query = addEl(root, 'Query');
  const orderId = addEl(query, 'OrderID', rq.order.orderId);
  if (rq.order.owner !== undefined) orderId.att('Owner', rq.order.owner);
  encodeServicing(query, rq);
  if (rq.payments.length > 0) encodeOrderPayments(query, rq.payments);
  if (rq.passengers.length > 0 || rq.contacts.length > 0) {
    const lists = addEl(root, 'DataLists');
    if (rq.passengers.length > 0) encodePassengerList(lists, rq.passengers);
    if (rq.contacts.length > 0) encodeContactList(lists, rq.contacts);
  }
  return endMessage(root);
}

/**
 * Parses and decodes an OrderChangeRQ; throws {@link NdcDecodeError}. A `PassengerServicing`
 * query, or an `AcceptOffer` of `OrderItem`s, is not modelled: it decodes with no offers, no
 * deletions and no reprice accepted.
 */
export function decodeOrderChangeRq(xml: string | Buffer, opts?: ParseOptions): OrderChangeRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const qPath = `${path}/Query`;
  const query = one(node, 'Query', path);
  const currency = messageCurrency(decodeMetadata(opt(query, 'OrderChangeMetadata'), `${qPath}/OrderChangeMetadata`));
  const rq: OrderChangeRq = {
    ...decodeRequestCommon(node, path),
    order: decodeOrderId(query, qPath),
    ...decodeServicing(query, qPath, currency),
    payments: decodeOrderPayments(query, qPath, currency),
    passengers: [],
    contacts: [],
  };
  decodeParameters(opt(node, 'OrderChangeParameters'), rq);
  const lists = opt(node, 'DataLists');
  const pax = lists === undefined ? undefined : opt(lists, 'PassengerList');
  if (pax !== undefined) rq.passengers = decodePassengerList(pax, `${path}/DataLists/PassengerList`);
  const contacts = lists === undefined ? undefined : opt(lists, 'ContactList');
  if (contacts !== undefined) rq.contacts = decodeContactList(contacts, `${path}/DataLists/ContactList`);
  return rq;
}

/** `OrderServicing` (AcceptOffer, Delete) or `AcceptRepricedOrder`: the servicing choice of `Query`, or nothing. */
function encodeServicing(query: XMLBuilder, rq: OrderChangeRq): void {
  const servicing = rq.acceptOffers.length > 0 || rq.deleteOrderItemIds.length > 0;
  if (servicing && rq.acceptRepricedOrder !== undefined)
    throw new Error('OrderChangeRQ: AcceptRepricedOrder goes alone, without offers or deletions (XSD choice)');
  if (rq.acceptRepricedOrder !== undefined) {
    addEl(addEl(query, 'AcceptRepricedOrder'), 'ResponseID', rq.acceptRepricedOrder);
    return;
  }
  if (!servicing) return;
  const el = addEl(query, 'OrderServicing');
  if (rq.acceptOffers.length > 0) {
    const accept = addEl(el, 'AcceptOffer');
    for (const o of rq.acceptOffers) encodeOrderOffer(accept, o);
  }
  if (rq.deleteOrderItemIds.length > 0) {
    const del = addEl(el, 'Delete');
    for (const id of rq.deleteOrderItemIds) addEl(del, 'OrderItemID', id);
  }
}

type Servicing = Pick<OrderChangeRq, 'acceptOffers' | 'deleteOrderItemIds' | 'acceptRepricedOrder'>;

function decodeServicing(query: XNode, path: string, currency: MessageCurrency): Servicing {
  const out: Servicing = { acceptOffers: [], deleteOrderItemIds: [] };
  const reprice = opt(query, 'AcceptRepricedOrder');
  if (reprice !== undefined) out.acceptRepricedOrder = reqText(reprice, 'ResponseID', `${path}/AcceptRepricedOrder`);
  const sPath = `${path}/OrderServicing`;
  const servicing = opt(query, 'OrderServicing');
  const accept = servicing === undefined ? undefined : opt(servicing, 'AcceptOffer');
  if (accept !== undefined) {
    out.acceptOffers = many(accept, 'Offer').map((o, i) =>
      decodeOrderOffer(o, `${sPath}/AcceptOffer/Offer[${i + 1}]`, currency),
    );
  }
  const del = servicing === undefined ? undefined : opt(servicing, 'Delete');
  if (del !== undefined)
    out.deleteOrderItemIds = many(del, 'OrderItemID')
      .map(text)
      .filter((id) => id !== '');
  return out;
}

/** `Query/OrderID` (text) and its optional `@Owner`. */
function decodeOrderId(query: XNode, path: string): OrderChangeRq['order'] {
  const order: OrderChangeRq['order'] = { orderId: reqText(query, 'OrderID', path) };
  const owner = attr(one(query, 'OrderID', path), 'Owner');
  if (owner !== undefined && owner !== '') order.owner = owner;
  return order;
}

/** `OrderChangeParameters`: its SecurePaymentAlert and Reason onto `rq`. */
function decodeParameters(params: XNode | undefined, rq: OrderChangeRq): void {
  if (params === undefined) return;
  const spa = findSecurePaymentAlert(params);
  if (spa !== undefined) rq.securePayment = spa;
  const reason = optValue(params, 'Reason');
  if (reason !== undefined) rq.reason = reason;
}

/**
 * OrderViewRS (NDC 17.2), the answer to OrderCreateRQ and OrderRetrieveRQ:
 * `Document`, then either `Success` + `Response` (orders with booking
 * references, total, status, payments, items; commission; DataLists with
 * passengers and contacts; Metadata) or `Errors` (e.g. Code 913, order not
 * found). Unlike AirShoppingRS/OfferPriceRS, the error form keeps `Document`.
 */
import type { Order, OrderItem, OrderItemService, OrderViewRs } from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import { decodeResponseHead, encodeDocumentResponse } from './response-frame';
import { decodeDataLists, encodeDataLists } from './data-lists.codec';
import { decodeMetadata, encodeMetadata, messageCurrency } from './metadata.codec';
import { decodePrice } from './price.codec';
import { decodeSelectedSeat, encodeSelectedSeat } from './air-shopping-rs.codec';
import {
  addEl,
  addMoney,
  attr,
  decodeMoney,
  many,
  one,
  opt,
  optText,
  optValue,
  domOf,
  reqAttr,
  reqMoney,
  reqText,
  text,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
  type MessageCurrency,
} from './xml';

const ROOT = 'OrderViewRS';

function encodeOrderItemService(parent: XMLBuilder, s: OrderItemService): void {
  const el = addEl(parent, 'Service').att('ServiceID', s.serviceId);
  if (s.passengerRef === undefined)
    throw new Error(`OrderItem Service ${s.serviceId}: passengerRef is required (PassengerRef)`);
  addEl(el, 'PassengerRef', s.passengerRef);
  if (s.selectedSeat !== undefined) {
    encodeSelectedSeat(domOf(el), s.selectedSeat);
  } else if (s.serviceDefinitionRef !== undefined) {
    const sd = addEl(el, 'ServiceDefinitionRef');
    if (s.segmentRef !== undefined) sd.att('SegmentRef', s.segmentRef);
    sd.txt(s.serviceDefinitionRef);
  } else if (s.segmentRef !== undefined) {
    addEl(el, 'SegmentRef', s.segmentRef);
  } else {
    throw new Error(`OrderItem Service ${s.serviceId}: serviceDefinitionRef or segmentRef is required`);
  }
}

function decodeOrderItemService(node: XNode, path: string): OrderItemService {
  const s: OrderItemService = { serviceId: reqAttr(node, 'ServiceID', path) };
  const passenger = optText(node, 'PassengerRef');
  if (passenger !== undefined) s.passengerRef = passenger;
  const sd = opt(node, 'ServiceDefinitionRef');
  const seat = opt(node, 'SelectedSeat');
  if (seat !== undefined) {
    s.selectedSeat = decodeSelectedSeat(seat, `${path}/SelectedSeat`);
  } else if (sd !== undefined) {
    const ref = text(sd);
    if (ref === '')
      throw new NdcDecodeError('MISSING', `${path}/ServiceDefinitionRef`, 'ServiceDefinitionRef is empty');
    s.serviceDefinitionRef = ref;
    const seg = attr(sd, 'SegmentRef');
    if (seg !== undefined) s.segmentRef = seg;
  } else {
    s.segmentRef = reqText(node, 'SegmentRef', path);
  }
  return s;
}

function encodeOrderItem(parent: XMLBuilder, item: OrderItem): void {
  const el = addEl(parent, 'OrderItem').att('OrderItemID', item.orderItemId);
  if (item.owner !== undefined) el.att('Owner', item.owner);
  const pd = addEl(el, 'PriceDetail');
  addMoney(pd, 'BaseAmount', item.base);
  if (item.taxes !== undefined) addMoney(addEl(pd, 'Taxes'), 'Total', item.taxes);
  if (item.services.length === 0) throw new Error(`OrderItem ${item.orderItemId}: at least one service is required`);
  for (const s of item.services) encodeOrderItemService(el, s);
}

function decodeOrderItem(node: XNode, path: string, currency: MessageCurrency): OrderItem {
  const pd = one(node, 'PriceDetail', path);
  const pdPath = `${path}/PriceDetail`;
  const item: OrderItem = {
    orderItemId: reqAttr(node, 'OrderItemID', path),
    base: reqMoney(pd, 'BaseAmount', pdPath, currency),
    services: many(node, 'Service').map((s, i) => decodeOrderItemService(s, `${path}/Service[${i + 1}]`)),
  };
  const owner = attr(node, 'Owner');
  if (owner !== undefined && owner !== '') item.owner = owner;
  // Taxes and its Total are both optional in the XSD (a Breakdown alone is valid).
  const taxes = opt(pd, 'Taxes');
  const total = taxes === undefined ? undefined : opt(taxes, 'Total');
  if (total !== undefined) item.taxes = decodeMoney(total, `${pdPath}/Taxes/Total`, currency);
  return item;
}

function encodeOrder(parent: XMLBuilder, o: Order): void {
  const el = addEl(parent, 'Order').att('OrderID', o.orderId).att('Owner', o.owner);
  if (o.webAddressId !== undefined) el.att('WebAddressID', o.webAddressId);
  if (o.bookingReferences.length) {
    const brs = addEl(el, 'BookingReferences');
    for (const br of o.bookingReferences) {
      const b = addEl(brs, 'BookingReference');
      addEl(b, 'ID', br.id);
      if (br.airlineId === undefined) throw new Error(`BookingReference ${br.id}: airlineId is required to encode`);
      addEl(b, 'AirlineID', br.airlineId);
    }
  }
  if (o.totalOrderPrice !== undefined) addMoney(addEl(el, 'TotalOrderPrice'), 'SimpleCurrencyPrice', o.totalOrderPrice);
  if (o.statusCode !== undefined) addEl(addEl(el, 'Status'), 'StatusCode', o.statusCode);
  if (o.payments.length) {
    const ps = addEl(el, 'Payments');
    for (const p of o.payments) {
      const x = addEl(ps, 'Payment');
      addEl(x, 'Type', p.type);
      if (p.amount === undefined) throw new Error('Payment: only an amount in money (amount) can be encoded');
      addMoney(addEl(x, 'Amount'), 'SimpleCurrencyPrice', p.amount);
      if (p.voucherNumber === undefined)
        throw new Error('Payment: only a VoucherMethod payment (voucherNumber) can be encoded');
      addEl(addEl(addEl(x, 'Method'), 'VoucherMethod'), 'Number', p.voucherNumber);
    }
  }
  if (o.orderItems.length === 0) throw new Error(`Order ${o.orderId}: at least one order item is required`);
  const items = addEl(el, 'OrderItems');
  for (const item of o.orderItems) encodeOrderItem(items, item);
}

function decodeOrder(node: XNode, path: string, currency: MessageCurrency): Order {
  const brs = opt(node, 'BookingReferences');
  const ps = opt(node, 'Payments');
  const o: Order = {
    orderId: reqAttr(node, 'OrderID', path),
    owner: reqAttr(node, 'Owner', path),
    bookingReferences:
      brs === undefined
        ? []
        : many(brs, 'BookingReference').map((b, i) => {
            const p = `${path}/BookingReferences/BookingReference[${i + 1}]`;
            const ref: Order['bookingReferences'][number] = { id: reqText(b, 'ID', p) };
            const airline = optText(b, 'AirlineID');
            if (airline !== undefined && airline !== '') ref.airlineId = airline;
            return ref;
          }),
    payments:
      ps === undefined
        ? []
        : many(ps, 'Payment').map((x, i) => {
            const p = `${path}/Payments/Payment[${i + 1}]`;
            // Amount is a price choice (any of the five forms); VoucherMethod/Number is optional.
            const { amount, other } = decodePrice(one(x, 'Amount', p), `${p}/Amount`, currency);
            const voucher = opt(one(x, 'Method', p), 'VoucherMethod');
            const number = voucher === undefined ? undefined : optValue(voucher, 'Number');
            const payment: Order['payments'][number] = { type: reqText(x, 'Type', p) };
            if (amount !== undefined) payment.amount = amount;
            if (other !== undefined) payment.otherPrice = other;
            if (number !== undefined) payment.voucherNumber = number;
            return payment;
          }),
    orderItems: many(one(node, 'OrderItems', path), 'OrderItem').map((it, i) =>
      decodeOrderItem(it, `${path}/OrderItems/OrderItem[${i + 1}]`, currency),
    ),
  };
  // TotalOrderPrice (in any price form) and Status are optional in the XSD.
  const tp = opt(node, 'TotalOrderPrice');
  if (tp !== undefined) {
    const { amount, other } = decodePrice(tp, `${path}/TotalOrderPrice`, currency);
    if (amount !== undefined) o.totalOrderPrice = amount;
    if (other !== undefined) o.otherPrice = other;
  }
  const status = opt(node, 'Status');
  const code = status === undefined ? undefined : optText(status, 'StatusCode');
  if (code !== undefined && code !== '') o.statusCode = code;
  const web = attr(node, 'WebAddressID');
  if (web !== undefined) o.webAddressId = web;
  return o;
}

/** Encodes an OrderViewRS (Document first in both forms). Throws a plain `Error` for a model the schema cannot represent. */
export function encodeOrderViewRs(msg: OrderViewRs, opts?: EncodeOptions): string {
  return encodeDocumentResponse(ROOT, msg, opts, (root, success) => {
    const resp = addEl(root, 'Response');
    if (success.orders.length === 0) throw new Error('OrderViewRS needs at least one Order');
    for (const o of success.orders) encodeOrder(resp, o);
    if (success.commission !== undefined) addMoney(addEl(resp, 'Commission'), 'Amount', success.commission);
    encodeDataLists(resp, success.dataLists);
    encodeMetadata(resp, success.metadata, { shopping: false });
  });
}

/** Decodes an OrderViewRS (success or error form). Throws {@link NdcDecodeError}. */
export function decodeOrderViewRs(xml: string | Buffer, opts?: ParseOptions): OrderViewRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const resp = one(node, 'Response', path);
  const rPath = `${path}/Response`;
  const metadata = decodeMetadata(opt(resp, 'Metadata'), `${rPath}/Metadata`);
  const currency = messageCurrency(metadata);
  const out: OrderViewRs = {
    ...rc,
    kind: 'success',
    orders: many(resp, 'Order').map((o, i) => decodeOrder(o, `${rPath}/Order[${i + 1}]`, currency)),
    dataLists: decodeDataLists(opt(resp, 'DataLists'), `${rPath}/DataLists`),
    metadata,
  };
  const commission = opt(resp, 'Commission');
  // Commission is an Amount or a Percentage in the XSD; only the amount is modelled.
  const commissionAmount = commission === undefined ? undefined : opt(commission, 'Amount');
  if (commissionAmount !== undefined)
    out.commission = decodeMoney(commissionAmount, `${rPath}/Commission/Amount`, currency);
  if (out.orders.length === 0)
    throw new NdcDecodeError('MISSING', `${rPath}/Order`, 'required element Order is missing');
  return out;
}

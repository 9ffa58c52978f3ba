/**
 * The `Order` of NDC 17.2 (OrderViewRS `Response/Order`, OrderChangeNotif `Query/Order`, the same
 * type in both): booking references, total, status, payments, time limits and items with their
 * services and time limits.
 */
import { SCHEDULE_CHANGE_ACTION_LIMIT, type Order, type OrderItem, type OrderItemService } from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import { decodePrice } from './price.codec';
import { decodeSelectedSeat, encodeSelectedSeat } from './air-shopping-rs.codec';
import {
  addEl,
  addMoney,
  attr,
  decodeBoolean,
  decodeMoney,
  domOf,
  many,
  one,
  opt,
  optText,
  optValue,
  reqAttr,
  reqMoney,
  reqText,
  text,
  type MessageCurrency,
  type XMLBuilder,
  type XNode,
} from './xml';

/** `<Order OrderID Owner WebAddressID>`: references, total, status, payments, time limits, items (XSD order). */
export function encodeOrder(parent: XMLBuilder, o: Order): void {
  const el = addEl(parent, 'Order').att('OrderID', o.orderId).att('Owner', o.owner);
  if (o.webAddressId !== undefined) el.att('WebAddressID', o.webAddressId);
  if (o.bookingReferences.length) encodeBookingReferences(el, o.bookingReferences);
  if (o.totalOrderPrice !== undefined) addMoney(addEl(el, 'TotalOrderPrice'), 'SimpleCurrencyPrice', o.totalOrderPrice);
  if (o.statusCode !== undefined) {
    const status = addEl(el, 'Status');
    if (o.scheduleChange !== undefined) status.att('ScheduleChangeInd', String(o.scheduleChange));
    addEl(status, 'StatusCode', o.statusCode);
  } else if (o.scheduleChange !== undefined) {
    throw new Error(`Order ${o.orderId}: scheduleChange needs a statusCode (Status/StatusCode is required there)`);
  }
  if (o.payments.length) encodePayments(el, o.payments);
  encodeOrderTimeLimits(el, o);
  if (o.orderItems.length === 0) throw new Error(`Order ${o.orderId}: at least one order item is required`);
  const items = addEl(el, 'OrderItems');
  for (const item of o.orderItems) encodeOrderItem(items, item);
}

/** Reads an `Order` (OrderViewRS, OrderChangeNotif); `currency` is the message's, for amounts without `Code`. */
export function decodeOrder(node: XNode, path: string, currency: MessageCurrency): Order {
  const brs = opt(node, 'BookingReferences');
  const ps = opt(node, 'Payments');
  const o: Order = {
    orderId: reqAttr(node, 'OrderID', path),
    owner: reqAttr(node, 'Owner', path),
    bookingReferences: brs === undefined ? [] : decodeBookingReferences(brs, `${path}/BookingReferences`),
    payments: ps === undefined ? [] : decodePayments(ps, `${path}/Payments`, currency),
    orderItems: many(one(node, 'OrderItems', path), 'OrderItem').map((it, i) =>
      decodeOrderItem(it, `${path}/OrderItems/OrderItem[${i + 1}]`, currency),
    ),
  };
  // TotalOrderPrice (in any price form), Status and TimeLimits are optional in the XSD.
  const tp = opt(node, 'TotalOrderPrice');
  if (tp !== undefined) {
    const { amount, other } = decodePrice(tp, `${path}/TotalOrderPrice`, currency);
    if (amount !== undefined) o.totalOrderPrice = amount;
    if (other !== undefined) o.otherPrice = other;
  }
  decodeStatus(node, path, o);
  decodeOrderTimeLimits(opt(node, 'TimeLimits'), o);
  const web = attr(node, 'WebAddressID');
  if (web !== undefined) o.webAddressId = web;
  return o;
}

/** Order-level `TimeLimits` (XSD order): `PaymentTimeLimit`, then the schedule change's deadline as a `BilateralTimeLimit`. */
function encodeOrderTimeLimits(el: XMLBuilder, o: Order): void {
  if (o.paymentTimeLimit === undefined && o.scheduleChangeActionBy === undefined) return;
  const limits = addEl(el, 'TimeLimits');
  if (o.paymentTimeLimit !== undefined) {
    // CoreDateGrpType: a date and time as DateTime, a date alone (as decoded from ShortDate) as ShortDate.
    const attrName = /^\d{4}-\d{2}-\d{2}$/.test(o.paymentTimeLimit) ? 'ShortDate' : 'DateTime';
    addEl(limits, 'PaymentTimeLimit').att(attrName, o.paymentTimeLimit);
  }
  if (o.scheduleChangeActionBy !== undefined) {
    const limit = addEl(addEl(limits, 'BilateralTimeLimits'), 'BilateralTimeLimit');
    limit.att('DateTime', o.scheduleChangeActionBy);
    addEl(limit, 'Name', SCHEDULE_CHANGE_ACTION_LIMIT);
  }
}

/** `PaymentTimeLimit` and the schedule change's `BilateralTimeLimit` (any of its date attributes) onto `o`. */
function decodeOrderTimeLimits(limits: XNode | undefined, o: Order): void {
  if (limits === undefined) return;
  const payBy = opt(limits, 'PaymentTimeLimit');
  const payLimit = payBy === undefined ? undefined : dateTimeOf(payBy);
  if (payLimit !== undefined) o.paymentTimeLimit = payLimit;
  const bilateral = opt(limits, 'BilateralTimeLimits');
  const action = (bilateral === undefined ? [] : many(bilateral, 'BilateralTimeLimit')).find(
    (limit) => optText(limit, 'Name') === SCHEDULE_CHANGE_ACTION_LIMIT,
  );
  const actionBy = action === undefined ? undefined : dateTimeOf(action);
  if (actionBy !== undefined) o.scheduleChangeActionBy = actionBy;
}

/** `Status/StatusCode` and `Status@ScheduleChangeInd` onto `o`. */
function decodeStatus(node: XNode, path: string, o: Order): void {
  const status = opt(node, 'Status');
  if (status === undefined) return;
  const code = optText(status, 'StatusCode');
  if (code !== undefined && code !== '') o.statusCode = code;
  const change = attr(status, 'ScheduleChangeInd');
  if (change !== undefined) o.scheduleChange = decodeBoolean(change, `${path}/Status/@ScheduleChangeInd`);
}

/**
 * The time of a time limit: `@DateTime` (CoreDateGrpType), else `@Timestamp` (the item limits'
 * types), else `@ShortDate` (a date alone); undefined when it gives none.
 */
function dateTimeOf(node: XNode): string | undefined {
  for (const name of ['DateTime', 'Timestamp', 'ShortDate']) {
    const v = attr(node, name);
    if (v !== undefined && v !== '') return v;
  }
  return undefined;
}

function encodeBookingReferences(parent: XMLBuilder, refs: Order['bookingReferences']): void {
  const brs = addEl(parent, 'BookingReferences');
  for (const br of refs) {
    const b = addEl(brs, 'BookingReference');
    addEl(b, 'ID', br.id);
    if (br.airlineId === undefined) throw new Error(`BookingReference ${br.id}: airlineId is required to encode`);
    addEl(b, 'AirlineID', br.airlineId);
  }
}

function decodeBookingReferences(node: XNode, path: string): Order['bookingReferences'] {
  return many(node, 'BookingReference').map((b, i) => {
    const p = `${path}/BookingReference[${i + 1}]`;
    const ref: Order['bookingReferences'][number] = { id: reqText(b, 'ID', p) };
    const airline = optText(b, 'AirlineID');
    if (airline !== undefined && airline !== '') ref.airlineId = airline;
    return ref;
  });
}

/** `Payments/Payment`: Type, Amount (`SimpleCurrencyPrice`), Method/VoucherMethod/Number. */
function encodePayments(parent: XMLBuilder, payments: Order['payments']): void {
  const ps = addEl(parent, 'Payments');
  for (const p of payments) {
    const x = addEl(ps, 'Payment');
    addEl(x, 'Type', p.type);
    if (p.amount === undefined) throw new Error('Payment: only an amount in money (amount) can be encoded');
    addMoney(addEl(x, 'Amount'), 'SimpleCurrencyPrice', p.amount);
    if (p.voucherNumber === undefined)
      throw new Error('Payment: only a VoucherMethod payment (voucherNumber) can be encoded');
    addEl(addEl(addEl(x, 'Method'), 'VoucherMethod'), 'Number', p.voucherNumber);
  }
}

/** Amount is a price choice (any of the five forms); VoucherMethod/Number is optional. */
function decodePayments(node: XNode, path: string, currency: MessageCurrency): Order['payments'] {
  return many(node, 'Payment').map((x, i) => {
    const p = `${path}/Payment[${i + 1}]`;
    const { amount, other } = decodePrice(one(x, 'Amount', p), `${p}/Amount`, currency);
    const voucher = opt(one(x, 'Method', p), 'VoucherMethod');
    const number = voucher === undefined ? undefined : optValue(voucher, 'Number');
    const payment: Order['payments'][number] = { type: reqText(x, 'Type', p) };
    if (amount !== undefined) payment.amount = amount;
    if (other !== undefined) payment.otherPrice = other;
    if (number !== undefined) payment.voucherNumber = number;
    return payment;
  });
}

function encodeOrderItem(parent: XMLBuilder, item: OrderItem): void {
  const el = addEl(parent, 'OrderItem').att('OrderItemID', item.orderItemId);
  if (item.owner !== undefined) el.att('Owner', item.owner);
  const pd = addEl(el, 'PriceDetail');
  addMoney(pd, 'BaseAmount', item.base);
  if (item.taxes !== undefined) addMoney(addEl(pd, 'Taxes'), 'Total', item.taxes);
  if (item.services.length === 0) throw new Error(`OrderItem ${item.orderItemId}: at least one service is required`);
  for (const s of item.services) encodeOrderItemService(el, s);
  if (item.paymentTimeLimit === undefined && item.priceGuaranteeTimeLimit === undefined) return;
  const limits = addEl(el, 'TimeLimits');
  if (item.paymentTimeLimit !== undefined) addEl(limits, 'PaymentTimeLimit').att('Timestamp', item.paymentTimeLimit);
  if (item.priceGuaranteeTimeLimit !== undefined)
    addEl(limits, 'PriceGuaranteeTimeLimits').att('Timestamp', item.priceGuaranteeTimeLimit);
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
  const limits = opt(node, 'TimeLimits');
  const pay = limits === undefined ? undefined : opt(limits, 'PaymentTimeLimit');
  const payLimit = pay === undefined ? undefined : dateTimeOf(pay);
  if (payLimit !== undefined) item.paymentTimeLimit = payLimit;
  const guarantee = limits === undefined ? undefined : opt(limits, 'PriceGuaranteeTimeLimits');
  const guaranteeLimit = guarantee === undefined ? undefined : dateTimeOf(guarantee);
  if (guaranteeLimit !== undefined) item.priceGuaranteeTimeLimit = guaranteeLimit;
  return item;
}

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

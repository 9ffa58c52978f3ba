/**
 * OrderCreateRQ: SecurePaymentAlert (URLs, CustomerDevice, a pre-authenticated 3-D Secure
 * result), the priced Offer
 * with TotalOfferPrice and items, Payments (voucher = card token), and
 * DataLists with PassengerList (Individual, ContactInfoRef) and ContactList.
 */
import type { OrderCreateRq, OrderOffer, OrderPayment, SecurePaymentAlert, ThreeDsResult } from './ndc.model';
import { decodeMetadata, messageCurrency } from './metadata.codec';
import {
  decodeContactList,
  decodePassengerList,
  decodeRequestCommon,
  encodeContactList,
  encodePassengerList,
  encodeRequestCommon,
} from './common.codec';
import { decodeSelectedOfferItem, encodeSelectedOfferItem } from './offer-price-rq.codec';
import { decodeSecurePaymentFields, encodeSecurePaymentFields } from './secure-payment.codec';
import {
  addEl,
  addMoney,
  decodeMoney,
  endMessage,
  many,
  one,
  opt,
  optValue,
  parseNdc,
  reqAttr,
  reqMoney,
  reqText,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
  type MessageCurrency,
} from './xml';

const ROOT = 'OrderCreateRQ';

/** Serialises an OrderCreateRQ (valid against OrderCreateRQ.xsd). */
export function encodeOrderCreateRq(rq: OrderCreateRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  if (rq.securePayment !== undefined) encodeSecurePaymentAlert(addEl(root, 'OrderCreateParameters'), rq.securePayment);
  const query = addEl(root, 'Query');
  if (rq.offers.length === 0) throw new Error('OrderCreateRQ: only an order of an Offer can be encoded');
  const order = addEl(query, 'Order');
  for (const o of rq.offers) encodeOrderOffer(order, o);
  if (rq.payments.length > 0) encodeOrderPayments(query, rq.payments);
  if (rq.passengers.length > 0 || rq.contacts.length > 0) {
    const lists = addEl(query, 'DataLists');
    if (rq.passengers.length > 0) encodePassengerList(lists, rq.passengers);
    if (rq.contacts.length > 0) encodeContactList(lists, rq.contacts);
  }
  return endMessage(root);
}

/**
 * Parses and decodes an OrderCreateRQ; throws {@link NdcDecodeError}. Every
 * `Query/Order/Offer` is decoded, in order (whether an order of several offers
 * is served is the airline's business); an order given by OrderItems only
 * decodes with `offers: []`. Amounts without `Code` take the currency of the
 * request's `Query/Metadata` CurrencyMetadatas, if it names one.
 */
export function decodeOrderCreateRq(xml: string | Buffer, opts?: ParseOptions): OrderCreateRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const queryPath = `${path}/Query`;
  const query = one(node, 'Query', path);
  const orderPath = `${queryPath}/Order`;
  // OrderCreateRQ keeps its Metadata inside Query.
  const currency = messageCurrency(decodeMetadata(opt(query, 'Metadata'), `${queryPath}/Metadata`));
  const rq: OrderCreateRq = {
    ...decodeRequestCommon(node, path),
    offers: many(one(query, 'Order', queryPath), 'Offer').map((o, i) =>
      decodeOrderOffer(o, `${orderPath}/Offer[${i + 1}]`, currency),
    ),
    payments: [],
    passengers: [],
    contacts: [],
  };
  const spa = findSecurePaymentAlert(opt(node, 'OrderCreateParameters'));
  if (spa !== undefined) rq.securePayment = spa;
  rq.payments = decodeOrderPayments(query, queryPath, currency);
  const lists = opt(query, 'DataLists');
  if (lists !== undefined) {
    const listsPath = `${queryPath}/DataLists`;
    const pax = opt(lists, 'PassengerList');
    if (pax !== undefined) rq.passengers = decodePassengerList(pax, `${listsPath}/PassengerList`);
    const contacts = opt(lists, 'ContactList');
    if (contacts !== undefined) rq.contacts = decodeContactList(contacts, `${listsPath}/ContactList`);
  }
  return rq;
}

/**
 * `Alerts/Alert/SecurePaymentAlert` of `parameters` (OrderCreateRQ's OrderCreateParameters,
 * OrderChangeRQ's OrderChangeParameters): URLs, Details/CustomerDevice, and a pre-authenticated
 * result in Reference/ACS_TxnReference and ProcessingInfos/ProcessingInfo.
 */
export function encodeSecurePaymentAlert(parameters: XMLBuilder, a: SecurePaymentAlert): void {
  const spa = addEl(addEl(addEl(parameters, 'Alerts'), 'Alert'), 'SecurePaymentAlert');
  const auth = a.authentication;
  encodeSecurePaymentFields(spa, {
    acsTxnReference: auth?.transactionId,
    failUrl: a.failUrl,
    termUrl: a.termUrl,
    ipAddress: a.ipAddress,
    userAgent: a.userAgent,
    cavv: auth?.cavv,
    authStatus: auth?.status,
    eci: auth?.eci,
  });
}

/** The first Alert of `params` (Order{Create,Change}Parameters) carrying a SecurePaymentAlert, or undefined. */
export function findSecurePaymentAlert(params: XNode | undefined): SecurePaymentAlert | undefined {
  const alerts = params === undefined ? undefined : opt(params, 'Alerts');
  if (alerts === undefined) return undefined;
  for (const a of many(alerts, 'Alert')) {
    const spa = opt(a, 'SecurePaymentAlert');
    if (spa === undefined) continue;
    // Every part is optional in the XSD: the airline asks for what it needs where it uses it.
    const f = decodeSecurePaymentFields(spa);
    const alert: SecurePaymentAlert = {};
    if (f.failUrl !== undefined) alert.failUrl = f.failUrl;
    if (f.termUrl !== undefined) alert.termUrl = f.termUrl;
    if (f.ipAddress !== undefined) alert.ipAddress = f.ipAddress;
    if (f.userAgent !== undefined) alert.userAgent = f.userAgent;
    if (f.cavv !== undefined || f.eci !== undefined || f.acsTxnReference !== undefined || f.authStatus !== undefined) {
      const auth: ThreeDsResult = {};
      if (f.acsTxnReference !== undefined) auth.transactionId = f.acsTxnReference;
      if (f.cavv !== undefined) auth.cavv = f.cavv;
      if (f.eci !== undefined) auth.eci = f.eci;
      if (f.authStatus !== undefined) auth.status = f.authStatus;
      alert.authentication = auth;
    }
    return alert;
  }
  return undefined;
}

/** `<Payments>` with one `<Payment>` each (OrderCreateRQ, OrderChangeRQ `Query`). */
export function encodeOrderPayments(query: XMLBuilder, payments: readonly OrderPayment[]): void {
  const el = addEl(query, 'Payments');
  for (const p of payments) encodePayment(el, p);
}

/** `Query/Payments/Payment` (`[]` without Payments). */
export function decodeOrderPayments(query: XNode, queryPath: string, currency: MessageCurrency): OrderPayment[] {
  const payments = opt(query, 'Payments');
  if (payments === undefined) return [];
  return many(payments, 'Payment').map((p, i) => decodePayment(p, `${queryPath}/Payments/Payment[${i + 1}]`, currency));
}

/** `<Offer OfferID Owner ResponseID>`: TotalOfferPrice, then the selected items (OrderCreateRQ, OrderChangeRQ AcceptOffer). */
export function encodeOrderOffer(parent: XMLBuilder, o: OrderOffer): void {
  const offer = addEl(parent, 'Offer').att('OfferID', o.offerId).att('Owner', o.owner).att('ResponseID', o.responseId);
  if (o.totalOfferPrice !== undefined) addMoney(offer, 'TotalOfferPrice', o.totalOfferPrice);
  for (const item of o.offerItems) encodeSelectedOfferItem(offer, item);
}

/** `<Payment>`: Type, Method/Voucher/Number, Amount. */
function encodePayment(parent: XMLBuilder, p: OrderPayment): void {
  const el = addEl(parent, 'Payment');
  addEl(el, 'Type', p.type);
  if (p.voucherNumber === undefined) throw new Error('Payment: only a Voucher payment (voucherNumber) can be encoded');
  addEl(addEl(addEl(el, 'Method'), 'Voucher'), 'Number', p.voucherNumber);
  addMoney(el, 'Amount', p.amount);
}

/** Reads a `Query/Order/Offer` (OrderCreateRQ) or `AcceptOffer/Offer` (OrderChangeRQ). */
export function decodeOrderOffer(o: XNode, offerPath: string, currency: MessageCurrency): OrderOffer {
  const offer: OrderOffer = {
    offerId: reqAttr(o, 'OfferID', offerPath),
    owner: reqAttr(o, 'Owner', offerPath),
    responseId: reqAttr(o, 'ResponseID', offerPath),
    offerItems: many(o, 'OfferItem').map((it, i) => decodeSelectedOfferItem(it, `${offerPath}/OfferItem[${i + 1}]`)),
  };
  const total = opt(o, 'TotalOfferPrice');
  if (total !== undefined) offer.totalOfferPrice = decodeMoney(total, `${offerPath}/TotalOfferPrice`, currency);
  return offer;
}

function decodePayment(node: XNode, path: string, currency: MessageCurrency): OrderPayment {
  const voucher = opt(one(node, 'Method', path), 'Voucher');
  const p: OrderPayment = { type: reqText(node, 'Type', path), amount: reqMoney(node, 'Amount', path, currency) };
  const number = voucher === undefined ? undefined : optValue(voucher, 'Number');
  if (number !== undefined) p.voucherNumber = number;
  return p;
}

/**
 * OrderViewRS (NDC 17.2), the answer to OrderCreateRQ, OrderRetrieveRQ and OrderChangeRQ:
 * `Document`, then either `Success` + `Response` (orders with booking
 * references, total, status, payments, time limits, items: `order.codec.ts`; commission;
 * DataLists with passengers and contacts; Metadata) or `Errors` (e.g. Code 913, order not
 * found). Unlike AirShoppingRS/OfferPriceRS, the error form keeps `Document`.
 */
import type { OrderViewRs } from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import { decodeResponseHead, encodeDocumentResponse } from './response-frame';
import { decodeDataLists, encodeDataLists } from './data-lists.codec';
import { decodeMetadata, encodeMetadata, messageCurrency } from './metadata.codec';
import { decodeOrder, encodeOrder } from './order.codec';
import { addEl, addMoney, decodeMoney, many, one, opt, type EncodeOptions, type ParseOptions } from './xml';

const ROOT = 'OrderViewRS';

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

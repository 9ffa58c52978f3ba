/**
 * OrderCancelRS (NDC 17.2): `Document`, then either `Success` (+ `Warnings`)
 * and one `Response` per cancelled order (`OrderReference`, then `ChangeFees`),
 * or `Errors`.
 *
 * Amounts: the cancellation fee is `ChangeFees/Details/Detail` with
 * `Type=Cancellation` and `Amounts/Amount/CurrencyAmountValue`. The schema has
 * no refund element, so the refund is a second Detail with `Type=Refund` (see
 * {@link OrderCancellation.refund}). `ChangeFees@CancelFeeInd` says whether a
 * fee applies and `@RefundableInd` whether anything is refunded.
 */
import type { Amount, OrderCancellation, OrderCancelRs } from './ndc.model';
import { decodeResponseHead, encodeDocumentResponse } from './response-frame';
import {
  addEl,
  addMoney,
  decodeMoney,
  many,
  one,
  opt,
  optText,
  reqText,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
} from './xml';

const ROOT = 'OrderCancelRS';
/** `ChangeFees/Details/Detail/Type` of the cancellation fee (PenaltyListType). */
export const CANCELLATION_FEE_TYPE = 'Cancellation';
/** `ChangeFees/Details/Detail/Type` of the refund (free text of PenaltySimpleType). */
export const REFUND_TYPE = 'Refund';

function isZero(m: Amount): boolean {
  return /^[+-]?0*(?:\.0*)?$/.test(m.value);
}

function encodeDetail(parent: XMLBuilder, type: string, m: Amount): void {
  const d = addEl(parent, 'Detail');
  addEl(d, 'Type', type);
  addMoney(addEl(addEl(d, 'Amounts'), 'Amount'), 'CurrencyAmountValue', m);
}

function encodeCancellation(parent: XMLBuilder, c: OrderCancellation): void {
  const el = addEl(parent, 'Response');
  addEl(el, 'OrderReference', c.orderReference);
  if (c.cancellationFee === undefined && c.refund === undefined) return;
  const fees = addEl(el, 'ChangeFees');
  if (c.cancellationFee !== undefined) fees.att('CancelFeeInd', String(!isZero(c.cancellationFee)));
  if (c.refund !== undefined) fees.att('RefundableInd', String(!isZero(c.refund)));
  const details = addEl(fees, 'Details');
  if (c.cancellationFee !== undefined) encodeDetail(details, CANCELLATION_FEE_TYPE, c.cancellationFee);
  if (c.refund !== undefined) encodeDetail(details, REFUND_TYPE, c.refund);
}

/** The first amount of the ChangeFees Detail of `type`, or undefined (percentages are not modelled). */
function detailAmount(details: XNode[], type: string, path: string): Amount | undefined {
  for (let i = 0; i < details.length; i++) {
    if (optText(details[i], 'Type') !== type) continue;
    const amounts = opt(details[i], 'Amounts');
    const p = `${path}/Details/Detail[${i + 1}]/Amounts`;
    const list = amounts === undefined ? [] : many(amounts, 'Amount');
    for (let j = 0; j < list.length; j++) {
      const v = opt(list[j], 'CurrencyAmountValue');
      if (v !== undefined) return decodeMoney(v, `${p}/Amount[${j + 1}]/CurrencyAmountValue`);
    }
  }
  return undefined;
}

function decodeCancellation(node: XNode, path: string): OrderCancellation {
  const c: OrderCancellation = { orderReference: reqText(node, 'OrderReference', path) };
  const fees = opt(node, 'ChangeFees');
  const details = fees === undefined ? undefined : opt(fees, 'Details');
  if (details !== undefined) {
    const list = many(details, 'Detail');
    const fee = detailAmount(list, CANCELLATION_FEE_TYPE, `${path}/ChangeFees`);
    if (fee !== undefined) c.cancellationFee = fee;
    const refund = detailAmount(list, REFUND_TYPE, `${path}/ChangeFees`);
    if (refund !== undefined) c.refund = refund;
  }
  return c;
}

/** Encodes an OrderCancelRS (Document first in both forms). Throws a plain `Error` for a model the schema cannot represent. */
export function encodeOrderCancelRs(msg: OrderCancelRs, opts?: EncodeOptions): string {
  return encodeDocumentResponse(ROOT, msg, opts, (root, success) => {
    if (success.cancellations.length === 0) throw new Error('OrderCancelRS needs at least one Response');
    for (const c of success.cancellations) encodeCancellation(root, c);
  });
}

/** Decodes an OrderCancelRS (success or error form). Throws `NdcDecodeError`. */
export function decodeOrderCancelRs(xml: string | Buffer, opts?: ParseOptions): OrderCancelRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const responses = many(node, 'Response');
  if (responses.length === 0) one(node, 'Response', path);
  return {
    ...rc,
    kind: 'success',
    cancellations: responses.map((r, i) => decodeCancellation(r, `${path}/Response[${i + 1}]`)),
  };
}

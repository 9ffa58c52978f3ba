/**
 * CustomerInputRS (NDC 17.2): `Document`, then either `Success` (+ `Warnings`) and `Response` with
 * `SecurePayments/SecurePayment` (SecurePaymentAlertType: `PayerAuth/PARes`, `Reference` with
 * `SPM_TxnReference` and `OriginalTransactionID`; then `Status`), or `Errors`. The client sends it
 * with the cardholder's authentication result; the airline answers OrderViewRS.
 */
import type { CustomerInputRs, SecurePaymentOutcome } from './ndc.model';
import { decodeResponseHead, encodeDocumentResponse } from './response-frame';
import { decodeSecurePaymentFields, encodeSecurePaymentFields } from './secure-payment.codec';
import {
  addEl,
  addOptText,
  many,
  one,
  opt,
  optText,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'CustomerInputRS';

function encodeOutcome(parent: XMLBuilder, o: SecurePaymentOutcome): void {
  const el = addEl(parent, 'SecurePayment');
  encodeSecurePaymentFields(el, {
    paRes: o.paRes,
    spmTxnReference: o.spmTxnReference,
    originalTransactionId: o.originalTransactionId,
  });
  addOptText(el, 'Status', o.status);
}

function decodeOutcome(node: XNode): SecurePaymentOutcome {
  const f = decodeSecurePaymentFields(node);
  const o: SecurePaymentOutcome = {};
  if (f.paRes !== undefined) o.paRes = f.paRes;
  if (f.spmTxnReference !== undefined) o.spmTxnReference = f.spmTxnReference;
  if (f.originalTransactionId !== undefined) o.originalTransactionId = f.originalTransactionId;
  const status = optText(node, 'Status');
  if (status !== undefined && status !== '') o.status = status;
  return o;
}

/** Encodes a CustomerInputRS (Document first in both forms). Throws a plain `Error` for a model the schema cannot represent. */
export function encodeCustomerInputRs(msg: CustomerInputRs, opts?: EncodeOptions): string {
  return encodeDocumentResponse(ROOT, msg, opts, (root, success) => {
    const response = addEl(root, 'Response');
    if (success.securePayments.length === 0) return;
    const payments = addEl(response, 'SecurePayments');
    for (const o of success.securePayments) encodeOutcome(payments, o);
  });
}

/** Decodes a CustomerInputRS (success or error form). Throws `NdcDecodeError`. */
export function decodeCustomerInputRs(xml: string | Buffer, opts?: ParseOptions): CustomerInputRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const response = one(node, 'Response', path);
  const payments = opt(response, 'SecurePayments');
  return {
    ...rc,
    kind: 'success',
    securePayments: payments === undefined ? [] : many(payments, 'SecurePayment').map(decodeOutcome),
  };
}

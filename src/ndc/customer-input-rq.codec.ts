/**
 * CustomerInputRQ (NDC 17.2): `Document`, `Party`, then `Query/SecurePayments/SecurePayment`, one
 * per payment to authenticate (SecurePaymentAlertType: `TransactionType`, `Reference` with
 * `SPM_TxnReference` and `OriginalTransactionID`, `URLs` with `ACS_URL`, `FailURL`, `TermURL`;
 * then `Amount`). The airline sends it in answer to an OrderCreateRQ whose card needs 3-D Secure
 * (docs/airline-service.md, "3-D Secure"). Unlike other requests it has no root `PointOfSale`.
 */
import type { CustomerInputRq, SecurePaymentChallenge } from './ndc.model';
import { decodeParty, encodeParty } from './common.codec';
import { decodeSecurePaymentFields, encodeSecurePaymentFields } from './secure-payment.codec';
import {
  addEl,
  addMoney,
  decodeHeader,
  decodeMoney,
  endMessage,
  many,
  one,
  opt,
  parseNdc,
  startMessage,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'CustomerInputRQ';

function encodeChallenge(parent: XMLBuilder, c: SecurePaymentChallenge): void {
  const el = addEl(parent, 'SecurePayment');
  encodeSecurePaymentFields(el, {
    transactionType: c.transactionType,
    spmTxnReference: c.spmTxnReference,
    originalTransactionId: c.originalTransactionId,
    acsUrl: c.acsUrl,
    failUrl: c.failUrl,
    termUrl: c.termUrl,
  });
  if (c.amount !== undefined) addMoney(el, 'Amount', c.amount);
}

function decodeChallenge(node: XNode, path: string): SecurePaymentChallenge {
  const f = decodeSecurePaymentFields(node);
  const c: SecurePaymentChallenge = {};
  for (const key of [
    'transactionType',
    'spmTxnReference',
    'originalTransactionId',
    'acsUrl',
    'failUrl',
    'termUrl',
  ] as const) {
    if (f[key] !== undefined) c[key] = f[key];
  }
  const amount = opt(node, 'Amount');
  if (amount !== undefined) c.amount = decodeMoney(amount, `${path}/Amount`);
  return c;
}

/** Serialises a CustomerInputRQ (valid against CustomerInputRQ.xsd). Throws a plain `Error` for a model the schema cannot represent. */
export function encodeCustomerInputRq(rq: CustomerInputRq, opts?: EncodeOptions): string {
  if (rq.securePayments.length === 0) throw new Error('CustomerInputRQ needs at least one SecurePayment');
  const root = startMessage(ROOT, rq, opts);
  addEl(root, 'Document');
  encodeParty(root, rq.party);
  const payments = addEl(addEl(root, 'Query'), 'SecurePayments');
  for (const c of rq.securePayments) encodeChallenge(payments, c);
  return endMessage(root);
}

/**
 * Parses and decodes a CustomerInputRQ; throws `NdcDecodeError`. `securePayments` is `[]` when
 * the query asks for something else (a PIN, `PassengerAuthentication`, not modelled): whether
 * that can be served is the caller's business.
 */
export function decodeCustomerInputRq(xml: string | Buffer, opts?: ParseOptions): CustomerInputRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const query = one(node, 'Query', path);
  const payments = opt(query, 'SecurePayments');
  const listPath = `${path}/Query/SecurePayments`;
  return {
    ...decodeHeader(node, path),
    party: decodeParty(one(node, 'Party', path), `${path}/Party`),
    securePayments:
      payments === undefined
        ? []
        : many(payments, 'SecurePayment').map((sp, i) => decodeChallenge(sp, `${listPath}/SecurePayment[${i + 1}]`)),
  };
}

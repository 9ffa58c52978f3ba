/**
 * The parts of SecurePaymentAlertType (NDC 17.2, `edist_commontypes.xsd`) that 3-D Secure uses,
 * shared by OrderCreateRQ (`SecurePaymentAlert`), CustomerInputRQ and CustomerInputRS
 * (`SecurePayment`, an extension of the same type). Written in the schema's order: `PayerAuth`,
 * `TransactionType`, `Reference`, `URLs`, `Details/CustomerDevice`, `ProcessingInfos`.
 */
import { addEl, addOptText, opt, optText, type XMLBuilder, type XNode } from './xml';

/** Every SecurePaymentAlertType field the project reads or writes, flat; each optional as in the XSD. */
export interface SecurePaymentFields {
  /** `PayerAuth/PARes`. */
  paRes?: string;
  transactionType?: string;
  /** `Reference/ACS_TxnReference`, `Reference/SPM_TxnReference`, `Reference/OriginalTransactionID`. */
  acsTxnReference?: string;
  spmTxnReference?: string;
  originalTransactionId?: string;
  /** `URLs/ACS_URL`, `URLs/FailURL`, `URLs/TermURL`. */
  acsUrl?: string;
  failUrl?: string;
  termUrl?: string;
  /** `Details/CustomerDevice/IP_Address` and `BrowserUserAgentHeader`. */
  ipAddress?: string;
  userAgent?: string;
  /** `ProcessingInfos/ProcessingInfo`: `CAVV`, `CustomerAuthStatus`, `ECI`. */
  cavv?: string;
  authStatus?: string;
  eci?: string;
}

const has = (...values: (string | undefined)[]) => values.some((v) => v !== undefined);

/** Writes `f` into `el` (a SecurePaymentAlert or SecurePayment), leaving out empty groups. */
export function encodeSecurePaymentFields(el: XMLBuilder, f: SecurePaymentFields): void {
  if (f.paRes !== undefined) addEl(addEl(el, 'PayerAuth'), 'PARes', f.paRes);
  addOptText(el, 'TransactionType', f.transactionType);
  if (has(f.acsTxnReference, f.spmTxnReference, f.originalTransactionId)) {
    const ref = addEl(el, 'Reference');
    addOptText(ref, 'ACS_TxnReference', f.acsTxnReference);
    addOptText(ref, 'SPM_TxnReference', f.spmTxnReference);
    addOptText(ref, 'OriginalTransactionID', f.originalTransactionId);
  }
  if (has(f.acsUrl, f.failUrl, f.termUrl)) {
    const urls = addEl(el, 'URLs');
    addOptText(urls, 'ACS_URL', f.acsUrl);
    addOptText(urls, 'FailURL', f.failUrl);
    addOptText(urls, 'TermURL', f.termUrl);
  }
  if (has(f.ipAddress, f.userAgent)) {
    const device = addEl(addEl(el, 'Details'), 'CustomerDevice');
    addOptText(device, 'IP_Address', f.ipAddress);
    addOptText(device, 'BrowserUserAgentHeader', f.userAgent);
  }
  if (has(f.cavv, f.authStatus, f.eci)) {
    const info = addEl(addEl(el, 'ProcessingInfos'), 'ProcessingInfo');
    addOptText(info, 'CAVV', f.cavv);
    addOptText(info, 'CustomerAuthStatus', f.authStatus);
    addOptText(info, 'ECI', f.eci);
  }
}

/** Non-empty text of child `name`, or undefined. */
function text(node: XNode | undefined, name: string): string | undefined {
  if (node === undefined) return undefined;
  const v = optText(node, name);
  return v === undefined || v === '' ? undefined : v;
}

/** Sets `key` of `f` when `value` is defined (keeps decoded models free of undefined keys). */
function put<K extends keyof SecurePaymentFields>(f: SecurePaymentFields, key: K, value: string | undefined): void {
  if (value !== undefined) f[key] = value;
}

/**
 * Reads the fields of a SecurePaymentAlertType element. Only the first `ProcessingInfo` is read
 * (one payment, one authentication). Every field is optional in the XSD; whoever needs one asks for
 * it where it uses it (`requireElement`).
 */
export function decodeSecurePaymentFields(el: XNode): SecurePaymentFields {
  const f: SecurePaymentFields = {};
  const payerAuth = opt(el, 'PayerAuth');
  put(f, 'paRes', text(payerAuth, 'PARes'));
  put(f, 'transactionType', text(el, 'TransactionType'));
  const ref = opt(el, 'Reference');
  put(f, 'acsTxnReference', text(ref, 'ACS_TxnReference'));
  put(f, 'spmTxnReference', text(ref, 'SPM_TxnReference'));
  put(f, 'originalTransactionId', text(ref, 'OriginalTransactionID'));
  const urls = opt(el, 'URLs');
  put(f, 'acsUrl', text(urls, 'ACS_URL'));
  put(f, 'failUrl', text(urls, 'FailURL'));
  put(f, 'termUrl', text(urls, 'TermURL'));
  const details = opt(el, 'Details');
  const device = details === undefined ? undefined : opt(details, 'CustomerDevice');
  put(f, 'ipAddress', text(device, 'IP_Address'));
  put(f, 'userAgent', text(device, 'BrowserUserAgentHeader'));
  const infos = opt(el, 'ProcessingInfos');
  const info = infos === undefined ? undefined : opt(infos, 'ProcessingInfo');
  put(f, 'cavv', text(info, 'CAVV'));
  put(f, 'authStatus', text(info, 'CustomerAuthStatus'));
  put(f, 'eci', text(info, 'ECI'));
  return f;
}

/**
 * Response framing shared by every response message: the root of a response
 * (header attributes and the `xs` prefix), its header and warnings when
 * decoding, and the error form (`Errors`) both ways.
 */
import type { MessageHeader, NdcError, ResponseCommon } from './ndc.model';
import { decodeErrors, decodeWarnings, encodeErrors, encodeWarnings } from './common.codec';
import { XMLNS_NS, XS_NS } from './namespaces';
import {
  addEl,
  decodeHeader,
  endMessage,
  one,
  opt,
  parseNdc,
  startMessage,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

/**
 * Starts a response document: root with header attributes plus the `xs`
 * prefix (used by `xsi:type="xs:string"` values).
 */
export function startResponse(root: string, h: MessageHeader, opts?: EncodeOptions): XMLBuilder {
  return startMessage(root, h, opts).att(XMLNS_NS, 'xmlns:xs', XS_NS);
}

/** Builds the ResponseCommon part of a decoded message (header plus optional Warnings). */
export function decodeResponseCommon(root: XNode, path: string): ResponseCommon {
  const rc: ResponseCommon = decodeHeader(root, path);
  const w = opt(root, 'Warnings');
  if (w !== undefined) rc.warnings = decodeWarnings(w);
  return rc;
}

/** Refuses warnings on an error form, whose schema has no place for them. */
export function assertNoWarnings(msg: ResponseCommon, root: string): void {
  if (msg.warnings?.length) throw new Error(`${root} error form cannot carry warnings`);
}

/** The error form every response message shares: header, then `Errors`. */
export type ResponseErrorForm = ResponseCommon & { kind: 'error'; errors: NdcError[] };

/**
 * Ends the error form of response `root`: writes `Errors` under `el` (the root, or
 * whatever the caller has already written in it) and returns the document.
 */
export function endErrorResponse(el: XMLBuilder, msg: ResponseErrorForm, root: string): string {
  assertNoWarnings(msg, root);
  encodeErrors(el, msg.errors);
  return endMessage(el);
}

/**
 * Opens response `root`: parses it, reads the header and warnings, and returns the error form
 * when `Errors` is present; otherwise checks `Success` and returns the root for the caller to
 * read its own body. Throws {@link NdcDecodeError}.
 */
export function decodeResponseHead(
  xml: string | Buffer,
  root: string,
  opts?: ParseOptions,
): ResponseErrorForm | { kind: 'success'; node: XNode; path: string; rc: ResponseCommon } {
  const { node, path } = parseNdc(xml, root, opts);
  const rc = decodeResponseCommon(node, path);
  const errors = opt(node, 'Errors');
  if (errors !== undefined) return { ...rc, kind: 'error', errors: decodeErrors(errors, `${path}/Errors`) };
  one(node, 'Success', path);
  return { kind: 'success', node, path, rc };
}

/**
 * Writes response `root` whose first element is `Document` (OrderViewRS, OrderCancelRS): the error
 * form whole, or `Success`, its Warnings and the body `writeBody` adds to the root.
 */
export function encodeDocumentResponse<S extends ResponseCommon & { kind: 'success' }>(
  root: string,
  msg: ResponseErrorForm | S,
  opts: EncodeOptions | undefined,
  writeBody: (el: XMLBuilder, success: S) => void,
): string {
  const el = startResponse(root, msg, opts);
  addEl(el, 'Document');
  if (msg.kind === 'error') return endErrorResponse(el, msg, root);
  addEl(el, 'Success');
  if (msg.warnings?.length) encodeWarnings(el, msg.warnings);
  writeBody(el, msg);
  return endMessage(el);
}

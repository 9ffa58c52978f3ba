/**
 * Reading NDC documents: one safe parse (guard, SOAP unwrapping, namespace
 * resolution, fast-xml-parser) and tiny readers over its output.
 *
 * Reading model: every element is an array in the parsed tree, so a
 * repeatable element can never be "object when single, array when repeated".
 * Element names are namespace-resolved before they reach the tree: NDC
 * elements appear under their local name (`Offer`), elements of the
 * extension namespace as `ns2:<local>` whatever prefix the sender used, and
 * elements of any other namespace under a name no decoder asks for (so
 * unknown content is ignored). Attributes are keyed `@Name`. Namespace
 * declarations are scoped per element, as XML Namespaces says; the bindings
 * of a parse are local to it (no module state).
 */
import { XMLParser } from 'fast-xml-parser';
import { isDecimal } from '../common/decimal';
import type { Amount, MessageHeader } from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import { lookThroughWrapper, ndcNamespacesOf } from './document-namespace';
import { EXT_NS, EXT_PREFIX, NDC_NS } from './namespaces';
import { exchangeSchemaProblem, ndcRootTag, readExchangeHeader, unwrapSoap } from './soap';
import { DEFAULT_MAX_BYTES, refuseDeclarations, toText, wellFormednessError } from './xml-guard';
import {
  declaredNamespaces,
  localName,
  prefixOf,
  scanRoot,
  scanStartTag,
  unescapeXml,
  type StartTag,
} from './xml-scan';

/** An element of the parsed tree: a string for a text-only element without attributes, else an object. */
export type XNode = string | { readonly [key: string]: unknown };

export interface ParseOptions {
  /** Largest accepted document in bytes (UTF-8). Default {@link DEFAULT_MAX_BYTES} (5 MiB). */
  maxBytes?: number;
  /**
   * Namespace whose elements the decoders read as extension elements (`ns2:` in
   * the tree). Default {@link EXT_NS}; the airline and client pass
   * `AIRLINE_EXTENSION_NAMESPACE`.
   */
  extensionNamespace?: string;
  /**
   * The namespace a partner's NDC documents arrive in when it is not {@link NDC_NS}: typically a
   * provider's default namespace, inherited by the NDC elements from a wrapper element of the
   * provider around the NDC root. When set, a root that is no NDC message is looked through for
   * the message inside it (the first element named as the expected root, else as any NDC 17.2
   * message root), and the elements of this namespace are read as NDC elements (those of
   * {@link NDC_NS} still are). `'*'` (`ANY_NAMESPACE`) accepts the NDC root in whatever namespace
   * it is, or none. Default: unset, so a root outside {@link NDC_NS} is `WRONG_NAMESPACE` and a
   * wrapper is `WRONG_ROOT`. Airline profiles set it (`documentNamespace`).
   */
  documentNamespace?: string;
}

export interface ParsedNdc {
  /** Local name of the root element, e.g. `AirShoppingRQ`. */
  root: string;
  /** The root element. */
  node: XNode;
  /** `/` + root, the path prefix for error messages. */
  path: string;
}

// ------------------------------------------------------------------ parsing

/** Marker put in front of elements of foreign namespaces so no decoder matches them. */
const FOREIGN = '{foreign}';

/** Names fast-xml-parser would refuse or rename as tag names (prototype pollution guards). */
const UNSAFE_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

/**
 * One parser for every document: names reach it already canonical (see
 * {@link resolveNames}), so it needs no per-parse state.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  // Every element is an array; attributes never are.
  isArray: (_name: string, _jpath: unknown, _isLeaf: boolean, isAttribute: boolean) => !isAttribute,
  // Callbacks get a matcher instead of a freshly built path string (cheaper; we never read it).
  jPath: false,
});

/**
 * True when every element name is already canonical as written: the default
 * namespace is only ever NDC, `ns2` only ever the extension namespace (or
 * unused), and no other prefix is bound to either. Then unprefixed elements
 * are NDC, `ns2:` ones extension elements and other prefixes foreign, wherever
 * they are declared: the common layout, parsed without rewriting.
 */
function isCanonical(bindings: Map<string, string[]>, ndc: ReadonlySet<string>, extNs: string, text: string): boolean {
  for (const [prefix, uris] of bindings) {
    if (prefix === '') {
      if (!uris.every((u) => ndc.has(u))) return false;
    } else if (prefix === 'ns2') {
      if (uris.length !== 1 || uris[0] !== extNs) return false;
    } else if (uris.some((u) => ndc.has(u) || u === extNs)) {
      return false;
    }
  }
  return bindings.has('ns2') || text.indexOf('<ns2:') < 0;
}

/** The tree name of an element written `qname` where `scope` binds the prefixes (no binding: no namespace, `''`). */
function canonicalName(
  qname: string,
  scope: ReadonlyMap<string, string>,
  ndc: ReadonlySet<string>,
  extNs: string,
): string {
  const ns = scope.get(prefixOf(qname)) ?? '';
  if (ndc.has(ns)) {
    const local = localName(qname);
    return UNSAFE_NAMES.has(local) ? FOREIGN + qname : local;
  }
  if (ns === extNs) return EXT_PREFIX + localName(qname);
  return FOREIGN + qname;
}

/**
 * Rewrites every element name of a well-formed document into its tree name
 * (NDC local name, `ns2:local`, or `{foreign}qname`), resolving prefixes with
 * the declarations in scope at each element. The scopes live on a stack local
 * to this call. Linear: one jump per tag.
 */
function resolveNames(text: string, ndc: ReadonlySet<string>, extNs: string): string {
  const out: string[] = [];
  const names: string[] = [];
  const scopes: ReadonlyMap<string, string>[] = [];
  let scope: ReadonlyMap<string, string> = new Map();
  let last = 0;
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    const c = text.charCodeAt(lt + 1);
    if (c === 0x3f /* ? */ || c === 0x21 /* ! */) {
      const close = c === 0x3f ? '?>' : text.startsWith('<!--', lt) ? '-->' : ']]>';
      i = text.indexOf(close, lt + 2) + close.length;
      continue;
    }
    if (c === 0x2f /* / */) {
      const e = text.indexOf('>', lt);
      out.push(text.slice(last, lt + 2), names.pop() as string);
      last = e;
      i = e + 1;
      scope = scopes.pop() as ReadonlyMap<string, string>;
      continue;
    }
    const tag = scanStartTag(text, lt);
    if (tag === undefined)
      throw new NdcDecodeError('MALFORMED_XML', '', `malformed XML: bad start tag at offset ${lt}`);
    let inner = scope;
    if (tag.attrs.indexOf('xmlns') >= 0) {
      const decls = declaredNamespaces(tag.attrs);
      if (decls.size > 0) {
        const m = new Map(scope);
        for (const [prefix, uris] of decls) m.set(prefix, uris[uris.length - 1]);
        inner = m;
      }
    }
    const name = canonicalName(tag.qname, inner, ndc, extNs);
    out.push(text.slice(last, lt + 1), name);
    last = lt + 1 + tag.qname.length;
    i = tag.end;
    if (!tag.selfClosing) {
      names.push(name);
      scopes.push(scope);
      scope = inner;
    }
  }
  out.push(text.slice(last));
  return out.join('');
}

/**
 * Name of the NDC root element (local part, prefix dropped), read cheaply
 * without parsing the document, e.g. to route `POST /retail/orders` by
 * `OrderCreateRQ` vs `OrderRetrieveRQ` vs `OrderCancelRQ`. Sees through a SOAP
 * envelope. Applies the size and DOCTYPE checks of {@link parseNdc} (same
 * options); the namespace is checked by the decoder.
 */
export function ndcRootName(xml: string | Buffer, opts: ParseOptions = {}): string {
  const text = toText(xml, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  refuseDeclarations(text);
  const tag = opts.documentNamespace === undefined ? ndcRootTag(text) : scanRoot(ndcDocument(text, opts));
  if (tag === undefined) throw new NdcDecodeError('MALFORMED_XML', '', 'no root element found');
  return localName(tag.qname);
}

/**
 * The NDC message of a document as a document of its own: out of its SOAP or NDC Exchange
 * envelope and (with `documentNamespace`) out of a provider's wrapper, with the namespaces it
 * inherits declared on its root; the document itself when it is bare. What a client keeps of an
 * answer. Applies the size, DOCTYPE and well-formedness checks of {@link parseNdc}.
 */
export function ndcDocument(
  xml: string | Buffer,
  opts: ParseOptions = {},
  expectedRoots: readonly string[] = [],
): string {
  const doc = checkedDocument(xml, opts);
  const text = unwrapEnvelope(doc);
  return opts.documentNamespace === undefined ? text : lookThroughWrapper(text, expectedRoots);
}

/**
 * Parses an NDC document safely and returns its root element.
 *
 * Refuses, before parsing, documents over `maxBytes` (`TOO_LARGE`) and any
 * DOCTYPE or ENTITY declaration (`DOCTYPE_FORBIDDEN`, so entity bombs are
 * never expanded); then malformed XML (`MALFORMED_XML`), a root other than
 * `expectedRoot` (`WRONG_ROOT`) and a root outside {@link NDC_NS}
 * (`WRONG_NAMESPACE`; see `ParseOptions.documentNamespace` for partners whose
 * documents arrive in another namespace). Any namespace prefix is accepted,
 * declared on any element. A SOAP 1.1 or 1.2 envelope is unwrapped first (see
 * `soap.ts`): the NDC root is the first element of its Body, a SOAP Header is
 * ignored, a Fault is `SOAP_FAULT`.
 */
export function parseNdc(
  xml: string | Buffer,
  expectedRoot: string | readonly string[],
  opts: ParseOptions = {},
): ParsedNdc {
  const expected = typeof expectedRoot === 'string' ? [expectedRoot] : expectedRoot;
  const text = ndcDocument(xml, opts, expected);
  const rootTag = scanRoot(text);
  if (rootTag === undefined) throw new NdcDecodeError('MALFORMED_XML', '', 'no root element found');
  const root = localName(rootTag.qname);
  if (!expected.includes(root)) {
    throw new NdcDecodeError('WRONG_ROOT', '/' + root, `expected root ${expected.join(' or ')}, got ${root}`);
  }
  const ndc = rootNamespaces(rootTag, root, opts.documentNamespace);
  return { root, node: parseTree(text, rootTag, root, ndc, opts.extensionNamespace ?? EXT_NS), path: '/' + root };
}

/** The document as text after the size, DOCTYPE and well-formedness checks. */
function checkedDocument(xml: string | Buffer, opts: ParseOptions): string {
  const doc = toText(xml, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  refuseDeclarations(doc);
  const problem = wellFormednessError(doc);
  if (problem !== undefined) throw new NdcDecodeError('MALFORMED_XML', '', `malformed XML: ${problem}`);
  return doc;
}

/**
 * The NDC document out of a SOAP or NDC Exchange envelope (`doc` itself when bare). An exchange
 * header announcing another schema is `UNSUPPORTED_SCHEMA`; a payload given as text is a document
 * of its own and gets the DOCTYPE and well-formedness checks again.
 */
function unwrapEnvelope(doc: string): string {
  const unwrapped = unwrapSoap(doc);
  if (unwrapped.binding !== 'ndcexchange') return unwrapped.text;
  const unsupported = exchangeSchemaProblem(readExchangeHeader(doc) ?? {});
  if (unsupported !== undefined)
    throw new NdcDecodeError('UNSUPPORTED_SCHEMA', '/NDCMSG_Envelope/NDCMSG_Header/Message', unsupported);
  refuseDeclarations(unwrapped.text);
  const inner = wellFormednessError(unwrapped.text);
  if (inner !== undefined)
    throw new NdcDecodeError(
      'MALFORMED_XML',
      '/NDCMSG_Envelope/NDCMSG_Body/NDCMSG_Payload',
      `malformed NDC payload: ${inner}`,
    );
  return unwrapped.text;
}

/** The namespaces read as NDC in a document with this root, or `WRONG_NAMESPACE` for a root in a namespace refused. */
function rootNamespaces(rootTag: StartTag, root: string, documentNamespace: string | undefined): ReadonlySet<string> {
  const rootNs = declaredNamespaces(rootTag.attrs).get(prefixOf(rootTag.qname))?.[0];
  const ndc = ndcNamespacesOf(rootNs, documentNamespace);
  if (ndc === undefined) {
    throw new NdcDecodeError(
      'WRONG_NAMESPACE',
      '/' + root,
      `root must be in namespace ${NDC_NS}, got ${rootNs ?? 'none'}`,
    );
  }
  return ndc;
}

/** The root element of the parsed tree (names resolved first unless the document is in the common layout). */
function parseTree(text: string, rootTag: StartTag, root: string, ndc: ReadonlySet<string>, extNs: string): XNode {
  const canonical = rootTag.qname === root && isCanonical(declaredNamespaces(text), ndc, extNs, text);
  let tree: Record<string, unknown>;
  try {
    tree = parser.parse(canonical ? text : resolveNames(text, ndc, extNs)) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof NdcDecodeError) throw e;
    throw new NdcDecodeError('MALFORMED_XML', '', `malformed XML: ${(e as Error).message}`);
  }
  const keys = Object.keys(tree);
  const roots = tree[root];
  if (keys.length !== 1 || !Array.isArray(roots) || roots.length !== 1) {
    throw new NdcDecodeError('MALFORMED_XML', '', 'a document must have exactly one root element');
  }
  return roots[0] as XNode;
}

// ------------------------------------------------------------------ reading

function children(node: XNode, name: string): XNode[] | undefined {
  if (typeof node === 'string') return undefined;
  return node[name] as XNode[] | undefined;
}

/** The first `name` child, required: throws `MISSING` naming `path/name`. */
export function one(node: XNode, name: string, path: string): XNode {
  const c = children(node, name);
  if (!c) throw new NdcDecodeError('MISSING', `${path}/${name}`, `required element ${name} is missing`);
  return c[0];
}

/** The first `name` child, or undefined. */
export function opt(node: XNode, name: string): XNode | undefined {
  return children(node, name)?.[0];
}

/** All `name` children, in document order; `[]` when there are none. */
export function many(node: XNode, name: string): XNode[] {
  return children(node, name) ?? [];
}

/** Text content of an element, trimmed and unescaped (`''` when empty). */
export function text(node: XNode): string {
  if (typeof node === 'string') return unescapeXml(node);
  const t = node['#text'];
  return typeof t === 'string' ? unescapeXml(t) : '';
}

/** Text of the required, non-empty `name` child. */
export function reqText(node: XNode, name: string, path: string): string {
  const t = text(one(node, name, path));
  if (t === '') throw new NdcDecodeError('MISSING', `${path}/${name}`, `element ${name} is empty`);
  return t;
}

/** Text of the `name` child, or undefined when it is absent. */
export function optText(node: XNode, name: string): string | undefined {
  const c = opt(node, name);
  return c === undefined ? undefined : text(c);
}

/** Text of the `name` child, or undefined when it is absent or empty (an optional value left blank). */
export function optValue(node: XNode, name: string): string | undefined {
  const t = optText(node, name);
  return t === '' ? undefined : t;
}

/** An attribute value (unescaped), or undefined. */
export function attr(node: XNode, name: string): string | undefined {
  if (typeof node === 'string') return undefined;
  const v = node['@' + name];
  return typeof v === 'string' ? unescapeXml(v) : undefined;
}

/** A required, non-empty attribute: throws `MISSING` naming `path/@name`. */
export function reqAttr(node: XNode, name: string, path: string): string {
  const v = attr(node, name);
  if (v === undefined || v === '')
    throw new NdcDecodeError('MISSING', `${path}/@${name}`, `required attribute ${name} is missing`);
  return v;
}

/** Name under which an extension element (the extension namespace, any prefix) appears in the parsed tree. */
export function extName(local: string): string {
  return EXT_PREFIX + local;
}

/**
 * The first extension child `<ns2:local>` (the extension namespace, any prefix), required.
 * Throws `WRONG_NAMESPACE` when an element of that local name is there in another
 * namespace, else `MISSING`; the path names it `ns2:local`.
 */
export function oneExt(node: XNode, local: string, path: string): XNode {
  const c = children(node, EXT_PREFIX + local);
  if (c) return c[0];
  const where = `${path}/${EXT_PREFIX}${local}`;
  if (typeof node !== 'string') {
    for (const key of Object.keys(node)) {
      if (key === local || key.endsWith(':' + local)) {
        throw new NdcDecodeError('WRONG_NAMESPACE', where, `element ${local} must be in the extension namespace`);
      }
    }
  }
  throw new NdcDecodeError('MISSING', where, `required extension element ${local} is missing`);
}

/** The first extension child `<ns2:local>`, or undefined. */
export function optExt(node: XNode, local: string): XNode | undefined {
  return children(node, EXT_PREFIX + local)?.[0];
}

/** Splits a space-separated reference list (IDREFS) into ids. */
export function decodeRefs(s: string | undefined): string[] {
  if (!s) return [];
  return s.split(/\s+/).filter((x) => x !== '');
}

/** Validates an exact decimal, keeping the text as written. */
export function decodeDecimal(s: string, path: string): string {
  if (!isDecimal(s)) throw new NdcDecodeError('INVALID_VALUE', path, `not a decimal amount: ${JSON.stringify(s)}`);
  return s;
}

/**
 * An amount from `<X Code="GBP">12.30</X>`. The currency is the `Code` attribute; the 17.2 amount
 * types make it optional, so without it the amount takes `currency` (the message's currency from
 * its metadata, see `messageCurrency`), and has none when that is undefined too.
 */
export function decodeMoney(node: XNode, path: string, currency?: MessageCurrency): Amount {
  const value = text(node);
  if (value === '') throw new NdcDecodeError('MISSING', path, 'amount is empty');
  const code = attr(node, 'Code');
  const m: Amount = { value: decodeDecimal(value, path) };
  if (code !== undefined && code !== '') m.currency = code;
  else if (typeof currency === 'string') m.currency = currency;
  else if (currency !== undefined) m.decimals = currency.decimals;
  return m;
}

/**
 * What a message says about the currency of its amounts written without `Code` (see
 * `messageCurrency`): an ISO 4217 code, only the number of decimal places (a `CurrencyMetadata`
 * without a currency code), or nothing.
 */
export type MessageCurrency = string | { decimals: number } | undefined;

/** The amount of the required `name` child (see {@link decodeMoney}). */
export function reqMoney(node: XNode, name: string, path: string, currency?: MessageCurrency): Amount {
  return decodeMoney(one(node, name, path), `${path}/${name}`, currency);
}

/** A non-negative integer in element text or an attribute. */
export function decodeInt(s: string | undefined, path: string): number {
  if (s === undefined || s === '') throw new NdcDecodeError('MISSING', path, 'value is missing');
  if (!/^\d{1,9}$/.test(s))
    throw new NdcDecodeError('INVALID_VALUE', path, `not a non-negative integer: ${JSON.stringify(s)}`);
  return Number(s);
}

/** A boolean (`true`/`false`/`1`/`0`, as xsd:boolean). */
export function decodeBoolean(s: string, path: string): boolean {
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  throw new NdcDecodeError('INVALID_VALUE', path, `not a boolean: ${JSON.stringify(s)}`);
}

/**
 * Root attributes. `Target` defaults to `Production` (the XSD default);
 * `Version` is required (the XSD requires it); `TimeStamp` is optional, as in
 * the XSD.
 */
export function decodeHeader(root: XNode, path: string): MessageHeader {
  const h: MessageHeader = {
    target: attr(root, 'Target') ?? 'Production',
    version: reqAttr(root, 'Version', path),
  };
  const ts = attr(root, 'TimeStamp');
  if (ts !== undefined && ts !== '') h.timeStamp = ts;
  const tx = attr(root, 'TransactionIdentifier');
  if (tx !== undefined) h.transactionIdentifier = boundedId(tx, 32, `${path}/@TransactionIdentifier`);
  const corr = attr(root, 'CorrelationID');
  if (corr !== undefined) h.correlationId = boundedId(corr, 64, `${path}/@CorrelationID`);
  return h;
}

/**
 * An id attribute of the root, 1 to `max` characters as the 17.2 schema's
 * StringLength1toNN types demand (responses echo these ids, so an over-long one
 * would make every answer invalid).
 */
function boundedId(s: string, max: number, path: string): string {
  if (s.length < 1 || s.length > max) {
    throw new NdcDecodeError('INVALID_VALUE', path, `must be 1 to ${max} characters, got ${s.length}`);
  }
  return s;
}

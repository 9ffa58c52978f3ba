/**
 * XML plumbing shared by every NDC message codec: one safe parser, tiny
 * readers over its output, and xmlbuilder2 writers for the recurring shapes
 * (message root, money, reference lists, nil elements, extension elements).
 *
 * Reading model: every element is an array in the parsed tree, so a
 * repeatable element can never be "object when single, array when repeated".
 * Element names are namespace-resolved before they reach the tree: NDC
 * elements appear under their local name (`Offer`), elements of the
 * extension namespace as `ns2:<local>` whatever prefix the sender used, and
 * elements of any other namespace under a name no decoder asks for (so
 * unknown content is ignored). Attributes are keyed `@Name`.
 */
import { XMLParser } from 'fast-xml-parser';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { isDecimal } from '../common/decimal';
import type { MessageHeader, Money } from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import { ndcRootTag, unwrapSoap } from './soap';
import { DEFAULT_MAX_BYTES, refuseDeclarations, toText, wellFormednessError } from './xml-guard';
import { declaredNamespaces, localName, scanRoot, unescapeXml } from './xml-scan';

export { DEFAULT_MAX_BYTES, wellFormednessError } from './xml-guard';
export { unescapeXml } from './xml-scan';

/** The NDC 17.2 (EDIST 2017.2) message namespace. */
export const NDC_NS = 'http://www.iata.org/IATA/EDIST/2017.2';
/** Namespace of ndc-saga's extension elements, written with the prefix `ns2`. */
export const EXT_NS = 'http://www.ndc-saga.dev/schema/ndc-ext/17.2';
/** XML Schema instance namespace (`xsi:nil`, `xsi:type`). */
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** An element of the parsed tree: a string for a text-only element without attributes, else an object. */
export type XNode = string | { readonly [key: string]: unknown };

export interface ParseOptions {
  /** Largest accepted document in bytes (UTF-8). Default {@link DEFAULT_MAX_BYTES} (5 MiB). */
  maxBytes?: number;
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

/** Canonical name of extension elements in the parsed tree. */
const EXT_PREFIX = 'ns2:';
/** Marker put in front of elements of foreign namespaces so no decoder matches them. */
const FOREIGN = '{foreign}';

/** Prefix -> role, set right before each (synchronous) parse. */
let ndcPrefixes: ReadonlySet<string> = new Set();
let extPrefixes: ReadonlySet<string> = new Set();

/**
 * Resolves the tag name as written (`prefix:local`) into the name the tree
 * uses. Not idempotent by nature: `Success` can be the resolved name of
 * `<n:Success>` or an element written without prefix in a foreign default
 * namespace. So it must see every element exactly once, as written. That is
 * why it runs as fast-xml-parser's `updateTag` (called once per element when
 * the element is added to its parent) and not as `transformTagName`, which
 * fast-xml-parser 5.12.1 applies twice to a self-closing tag (once to the
 * raw name, again to its own result), which turned `<n:Success/>` into a
 * foreign element.
 */
function resolveTagName(tag: string): string {
  const i = tag.indexOf(':');
  const prefix = i < 0 ? '' : tag.slice(0, i);
  let name: string;
  if (ndcPrefixes.has(prefix)) name = i < 0 ? tag : tag.slice(i + 1);
  else if (extPrefixes.has(prefix)) return EXT_PREFIX + tag.slice(i + 1);
  else return FOREIGN + tag;
  // updateTag results skip fast-xml-parser's own name sanitising, so keep
  // object-prototype names out of the tree (no decoder reads them).
  return UNSAFE_NAMES.has(name) ? FOREIGN + tag : name;
}

/** Names fast-xml-parser refuses or renames as tag names (prototype pollution guards). */
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

const PARSER_OPTIONS = {
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
};
/**
 * For documents whose prefixes need rewriting. `updateTag` runs once per
 * element, as written; see {@link resolveTagName} for why not `transformTagName`.
 */
const resolvingParser = new XMLParser({
  ...PARSER_OPTIONS,
  updateTag: (tag: string) => resolveTagName(tag),
});
/**
 * For the common layout (NDC as default namespace, extension prefix `ns2`):
 * names are already canonical, so skip the per-tag rewrite. Foreign
 * prefixed elements keep their `prefix:` and so still match no NDC name.
 */
const plainParser = new XMLParser(PARSER_OPTIONS);

/**
 * Name of the root element (local part, prefix dropped), read cheaply
 * without parsing the document, e.g. to route `POST /retail/orders` by
 * `OrderCreateRQ` vs `OrderRetrieveRQ`. Applies the size and DOCTYPE checks
 * of {@link parseNdc} (same options); the namespace is checked by the decoder.
 */
export function ndcRootName(xml: string | Buffer, opts: ParseOptions = {}): string {
  const text = toText(xml, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  refuseDeclarations(text);
  const tag = ndcRootTag(text);
  if (tag === undefined) throw new NdcDecodeError('MALFORMED_XML', '', 'no root element found');
  return localName(tag.qname);
}

/**
 * Parses an NDC document safely and returns its root element.
 *
 * Refuses, before parsing, documents over `maxBytes` (`TOO_LARGE`) and any
 * DOCTYPE or ENTITY declaration (`DOCTYPE_FORBIDDEN`, so entity bombs are
 * never expanded); then malformed XML (`MALFORMED_XML`), a root other than
 * `expectedRoot` (`WRONG_ROOT`) and a root outside {@link NDC_NS}
 * (`WRONG_NAMESPACE`). Any namespace prefix is accepted. A SOAP 1.1 or 1.2
 * envelope is unwrapped first (see `soap.ts`): the NDC root is the first
 * element of its Body, a SOAP Header is ignored, a Fault is `SOAP_FAULT`.
 *
 * Limitation: prefixes are bound per document, not per element; a prefix
 * declared with two different namespaces is bound to none of them (the
 * root's own prefix keeps the root's binding).
 */
export function parseNdc(xml: string | Buffer, expectedRoot: string | readonly string[], opts: ParseOptions = {}): ParsedNdc {
  const doc = toText(xml, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  refuseDeclarations(doc);
  const problem = wellFormednessError(doc);
  if (problem !== undefined) throw new NdcDecodeError('MALFORMED_XML', '', `malformed XML: ${problem}`);
  const text = unwrapSoap(doc).text;

  const rootTag = scanRoot(text);
  if (rootTag === undefined) throw new NdcDecodeError('MALFORMED_XML', '', 'no root element found');
  const { qname, attrs } = rootTag;
  const root = localName(qname);
  const expected = typeof expectedRoot === 'string' ? [expectedRoot] : expectedRoot;
  if (!expected.includes(root)) {
    throw new NdcDecodeError('WRONG_ROOT', '/' + root, `expected root ${expected.join(' or ')}, got ${root}`);
  }
  const rootPrefix = qname.length === root.length ? '' : qname.slice(0, qname.length - root.length - 1);
  const rootNs = declaredNamespaces(attrs).get(rootPrefix)?.[0];
  if (rootNs !== NDC_NS) {
    throw new NdcDecodeError('WRONG_NAMESPACE', '/' + root, `root must be in namespace ${NDC_NS}, got ${rootNs ?? 'none'}`);
  }

  const bindings = declaredNamespaces(text);
  const ndc = new Set<string>([rootPrefix]);
  const ext = new Set<string>();
  for (const [prefix, uris] of bindings) {
    if (prefix === rootPrefix || uris.length !== 1) continue;
    if (uris[0] === NDC_NS) ndc.add(prefix);
    else if (uris[0] === EXT_NS) ext.add(prefix);
  }
  ndcPrefixes = ndc;
  extPrefixes = ext;
  const plain = rootPrefix === '' && ndc.size === 1 && isPlainExtBinding(bindings.get('ns2'), ext, text);
  let tree: Record<string, unknown>;
  try {
    tree = (plain ? plainParser : resolvingParser).parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new NdcDecodeError('MALFORMED_XML', '', `malformed XML: ${(e as Error).message}`);
  } finally {
    ndcPrefixes = new Set();
    extPrefixes = new Set();
  }
  const keys = Object.keys(tree);
  const roots = tree[root];
  if (keys.length !== 1 || !Array.isArray(roots) || roots.length !== 1) {
    throw new NdcDecodeError('MALFORMED_XML', '', 'a document must have exactly one root element');
  }
  return { root, node: roots[0] as XNode, path: '/' + root };
}

/** True when `ns2` is the only extension prefix and is bound to nothing else (or unused). */
function isPlainExtBinding(ns2: string[] | undefined, ext: ReadonlySet<string>, text: string): boolean {
  if (ns2 === undefined) return ext.size === 0 && text.indexOf('<ns2:') < 0;
  return ext.size === 1 && ext.has('ns2');
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

/** An attribute value (unescaped), or undefined. */
export function attr(node: XNode, name: string): string | undefined {
  if (typeof node === 'string') return undefined;
  const v = node['@' + name];
  return typeof v === 'string' ? unescapeXml(v) : undefined;
}

/** A required, non-empty attribute: throws `MISSING` naming `path/@name`. */
export function reqAttr(node: XNode, name: string, path: string): string {
  const v = attr(node, name);
  if (v === undefined || v === '') throw new NdcDecodeError('MISSING', `${path}/@${name}`, `required attribute ${name} is missing`);
  return v;
}

/** Name under which an extension element (namespace {@link EXT_NS}) appears in the parsed tree. */
export function extName(local: string): string {
  return EXT_PREFIX + local;
}

/**
 * The first extension child `<ns2:local>` (namespace {@link EXT_NS}, any prefix), required.
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
        throw new NdcDecodeError('WRONG_NAMESPACE', where, `element ${local} must be in namespace ${EXT_NS}`);
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

/** Money from `<X Code="GBP">12.30</X>` (the currency attribute is `Code`). */
export function decodeMoney(node: XNode, path: string): Money {
  const value = text(node);
  if (value === '') throw new NdcDecodeError('MISSING', path, 'amount is empty');
  return { value: decodeDecimal(value, path), currency: reqAttr(node, 'Code', path) };
}

/** Money of the required `name` child. */
export function reqMoney(node: XNode, name: string, path: string): Money {
  return decodeMoney(one(node, name, path), `${path}/${name}`);
}

/** A non-negative integer in element text or an attribute. */
export function decodeInt(s: string | undefined, path: string): number {
  if (s === undefined || s === '') throw new NdcDecodeError('MISSING', path, 'value is missing');
  if (!/^\d{1,9}$/.test(s)) throw new NdcDecodeError('INVALID_VALUE', path, `not a non-negative integer: ${JSON.stringify(s)}`);
  return Number(s);
}

/** A boolean (`true`/`false`/`1`/`0`, as xsd:boolean). */
export function decodeBoolean(s: string, path: string): boolean {
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  throw new NdcDecodeError('INVALID_VALUE', path, `not a boolean: ${JSON.stringify(s)}`);
}

/** Root attributes (Target defaults to `Production`, as in the XSD; Version and TimeStamp are required). */
export function decodeHeader(root: XNode, path: string): MessageHeader {
  const h: MessageHeader = {
    target: attr(root, 'Target') ?? 'Production',
    version: reqAttr(root, 'Version', path),
    timeStamp: reqAttr(root, 'TimeStamp', path),
  };
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

// ------------------------------------------------------------------ writing

export type { XMLBuilder };

/**
 * Starts a message: the XML declaration and the root element in {@link NDC_NS}
 * with `xmlns:ns2` ({@link EXT_NS}), `xmlns:xsi` and the header attributes
 * (Target, Version, TimeStamp, TransactionIdentifier, CorrelationID; absent
 * optional ones are omitted). Add children in XSD order, then call
 * {@link endMessage}.
 */
export function startMessage(root: string, h: MessageHeader): XMLBuilder {
  const el = create({ version: '1.0', encoding: 'UTF-8' })
    .ele(NDC_NS, root)
    .att(XMLNS_NS, 'xmlns:ns2', EXT_NS)
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att('Target', h.target)
    .att('Version', h.version)
    .att('TimeStamp', h.timeStamp);
  if (h.transactionIdentifier !== undefined) el.att('TransactionIdentifier', h.transactionIdentifier);
  if (h.correlationId !== undefined) el.att('CorrelationID', h.correlationId);
  return el;
}

/**
 * Serialises the whole document the element belongs to (compact, UTF-8
 * declaration), with the subtrees written by {@link addDetached} in place.
 */
export function endMessage(el: XMLBuilder): string {
  const xml = el.end({ prettyPrint: false });
  const parts = detachedParts.get(el.node.ownerDocument ?? el.node);
  if (parts === undefined) return xml;
  let spliced = 0;
  const out = xml.replace(DETACHED_MARK, (_m: string, i: string) => {
    spliced++;
    return parts[Number(i)];
  });
  // Cannot happen (markers are elements, which no model text can produce); guards the splice.
  if (spliced !== parts.length) throw new Error(`endMessage: ${parts.length - spliced} detached subtree(s) lost`);
  return out;
}

// ----------------------------------------------------- fast DOM writes

/**
 * The slice of the DOM that xmlbuilder2 exposes through `XMLBuilder.node`.
 * The hot paths of the response encoders (offers and their items, written
 * hundreds of times in a large AirShoppingRS) append to it directly: it skips
 * the builder's per-call wrapper objects and namespace lookups; the document
 * is still serialised by xmlbuilder2.
 */
export interface DomElement {
  readonly ownerDocument: {
    createElementNS(namespace: string, qualifiedName: string): DomElement;
    createTextNode(data: string): unknown;
  } | null;
  appendChild(node: unknown): unknown;
  setAttribute(name: string, value: string): void;
  setAttributeNS(namespace: string, qualifiedName: string, value: string): void;
}

/** The DOM element behind an xmlbuilder2 builder. */
export function domOf(b: XMLBuilder): DomElement {
  return b.node as unknown as DomElement;
}

/** Appends `<name>` in the NDC namespace (with `text` when given) to a DOM element and returns it. */
export function domEl(parent: DomElement, name: string, text?: string): DomElement {
  const doc = parent.ownerDocument!;
  const el = doc.createElementNS(NDC_NS, name);
  parent.appendChild(el);
  if (text !== undefined) el.appendChild(doc.createTextNode(text));
  return el;
}

/** Appends `<name Code="CUR">amount</name>` to a DOM element and returns it. */
export function domMoney(parent: DomElement, name: string, m: Money): DomElement {
  const doc = parent.ownerDocument!;
  const el = doc.createElementNS(NDC_NS, name);
  parent.appendChild(el);
  el.setAttribute('Code', m.currency);
  el.appendChild(doc.createTextNode(m.value));
  return el;
}

// ------------------------------------------------------- detached subtrees

/** Local name of the placeholder elements; `<ndcDetached7/>` stands for subtree 7. */
const DETACHED_NAME = 'ndcDetached';
const DETACHED_MARK = /<ndcDetached(\d+)\/>/g;
/** Serialised subtrees of each document under construction, in placeholder order. */
const detachedParts = new WeakMap<object, string[]>();

/**
 * Writes a subtree of `parent` (an NDC element of a document begun with
 * {@link startMessage}) through `write`, which appends to the DOM element it
 * is given, exactly as if it appended to `parent`. The subtree is built in a
 * detached element of the same document that carries the root's namespace
 * declarations, serialised by xmlbuilder2 straight away (`toString`), and
 * dropped; `parent` keeps a placeholder element that {@link endMessage}
 * replaces with that text. The bytes are those of writing into `parent`
 * directly.
 *
 * Why: a large response holds tens of thousands of xmlbuilder2 DOM nodes.
 * Kept until the end they all survive V8's young-generation collections and
 * get copied and promoted, which was about half of the encode time; built
 * and serialised one offer at a time, they die young and cost little.
 */
export function addDetached(parent: XMLBuilder, write: (el: DomElement) => void): void {
  // Built attached (so the builder serialises it with the document's own options), then removed.
  const wrapper = parent.ele(NDC_NS, DETACHED_NAME).att(XMLNS_NS, 'xmlns:ns2', EXT_NS).att(XMLNS_NS, 'xmlns:xsi', XSI_NS);
  write(domOf(wrapper));
  const xml = wrapper.toString({ prettyPrint: false });
  wrapper.remove();
  // `<ndcDetached xmlns=... xmlns:ns2=... xmlns:xsi=...>` + content + `</ndcDetached>`, or `<ndcDetached .../>`.
  const inner = xml.endsWith('/>') ? '' : xml.slice(xml.indexOf('>') + 1, xml.length - DETACHED_NAME.length - 3);
  const doc = parent.node.ownerDocument ?? parent.node;
  let parts = detachedParts.get(doc);
  if (parts === undefined) detachedParts.set(doc, (parts = []));
  parent.ele(NDC_NS, DETACHED_NAME + parts.length);
  parts.push(inner);
}

/** Adds `<name>` (optionally with text) and returns it. */
export function addEl(parent: XMLBuilder, name: string, value?: string): XMLBuilder {
  const el = parent.ele(name);
  if (value !== undefined) el.txt(value);
  return el;
}

/** Adds `<name>` only when `value` is defined. */
export function addOptText(parent: XMLBuilder, name: string, value: string | undefined): void {
  if (value !== undefined) parent.ele(name).txt(value);
}

/** Adds `<name Code="CUR">amount</name>` and returns it. */
export function addMoney(parent: XMLBuilder, name: string, m: Money): XMLBuilder {
  return parent.ele(name).att('Code', m.currency).txt(m.value);
}

/** Adds `<name>a b c</name>` for a reference list and returns it. */
export function addRefs(parent: XMLBuilder, name: string, refs: readonly string[]): XMLBuilder {
  return parent.ele(name).txt(encodeRefs(refs));
}

/** Joins ids into a space-separated IDREFS value. */
export function encodeRefs(refs: readonly string[]): string {
  return refs.join(' ');
}

/** Adds `<name xsi:nil="true"/>` and returns it. */
export function addNil(parent: XMLBuilder, name: string): XMLBuilder {
  return parent.ele(name).att(XSI_NS, 'xsi:nil', 'true');
}

/** Adds an extension element `<ns2:local>` in {@link EXT_NS} (optionally with text) and returns it. */
export function addExt(parent: XMLBuilder, local: string, value?: string): XMLBuilder {
  const el = parent.ele(EXT_NS, EXT_PREFIX + local);
  if (value !== undefined) el.txt(value);
  return el;
}

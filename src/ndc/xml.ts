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

/** The NDC 17.2 (EDIST 2017.2) message namespace. */
export const NDC_NS = 'http://www.iata.org/IATA/EDIST/2017.2';
/** Namespace of ndc-saga's extension elements, written with the prefix `ns2`. */
export const EXT_NS = 'http://www.ndc-saga.dev/schema/ndc-ext/17.2';
/** XML Schema instance namespace (`xsi:nil`, `xsi:type`). */
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Default largest document `parseNdc` accepts: 5 MiB. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

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

const FORBIDDEN_DECL = /<!(?:DOCTYPE|ENTITY)/gi;
const XMLNS_DECL = /\bxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const PROLOG_ITEM = /\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->)/y;
const ROOT_TAG = /\s*<([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;

function toText(xml: string | Buffer, maxBytes: number): string {
  if (typeof xml === 'string') {
    // A UTF-16 unit is at most 3 UTF-8 bytes: only count when it could matter.
    if (xml.length > maxBytes || (xml.length * 3 > maxBytes && Buffer.byteLength(xml, 'utf8') > maxBytes)) {
      throw new NdcDecodeError('TOO_LARGE', '', `document larger than ${maxBytes} bytes`);
    }
    return xml;
  }
  if (xml.length > maxBytes) throw new NdcDecodeError('TOO_LARGE', '', `document larger than ${maxBytes} bytes`);
  return xml.toString('utf8');
}

function refuseDeclarations(text: string): void {
  // Most documents hold no `!` at all: a one-character indexOf (memchr-fast,
  // unlike V8's search for a two-character string) settles that, and the
  // case-insensitive pattern only runs from the first `!` on.
  const bang = text.indexOf('!');
  if (bang < 1) return;
  FORBIDDEN_DECL.lastIndex = bang - 1;
  if (FORBIDDEN_DECL.test(text)) {
    throw new NdcDecodeError('DOCTYPE_FORBIDDEN', '', 'DOCTYPE and ENTITY declarations are not accepted');
  }
}

/** Finds the root start tag without parsing the document. */
function scanRoot(text: string): { qname: string; attrs: string } {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    PROLOG_ITEM.lastIndex = pos;
    if (!PROLOG_ITEM.test(text)) break;
    pos = PROLOG_ITEM.lastIndex;
  }
  ROOT_TAG.lastIndex = pos;
  const m = ROOT_TAG.exec(text);
  if (!m) throw new NdcDecodeError('MALFORMED_XML', '', 'no root element found');
  return { qname: m[1], attrs: m[2] };
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

/**
 * Name of the root element (local part, prefix dropped), read cheaply
 * without parsing the document, e.g. to route `POST /retail/orders` by
 * `OrderCreateRQ` vs `OrderRetrieveRQ`. Applies the size and DOCTYPE checks
 * of {@link parseNdc} (same options); the namespace is checked by the decoder.
 */
export function ndcRootName(xml: string | Buffer, opts: ParseOptions = {}): string {
  const text = toText(xml, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  refuseDeclarations(text);
  return localName(scanRoot(text).qname);
}

/**
 * Parses an NDC document safely and returns its root element.
 *
 * Refuses, before parsing, documents over `maxBytes` (`TOO_LARGE`) and any
 * DOCTYPE or ENTITY declaration (`DOCTYPE_FORBIDDEN`, so entity bombs are
 * never expanded); then malformed XML (`MALFORMED_XML`), a root other than
 * `expectedRoot` (`WRONG_ROOT`) and a root outside {@link NDC_NS}
 * (`WRONG_NAMESPACE`). Any namespace prefix is accepted.
 *
 * Limitation: prefixes are bound per document, not per element; a prefix
 * declared with two different namespaces is bound to none of them (the
 * root's own prefix keeps the root's binding).
 */
export function parseNdc(xml: string | Buffer, expectedRoot: string | readonly string[], opts: ParseOptions = {}): ParsedNdc {
  const text = toText(xml, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  refuseDeclarations(text);
  const problem = wellFormednessError(text);
  if (problem !== undefined) throw new NdcDecodeError('MALFORMED_XML', '', `malformed XML: ${problem}`);

  const { qname, attrs } = scanRoot(text);
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

// ------------------------------------------------------------ well-formedness

const NAME = /^[A-Za-z_:\u00C0-\uFFFF][\w.:\u00B7-\uFFFF-]*$/;
const BAD_AMP = /&(?!(?:[A-Za-z_][\w.-]*|#[0-9]+|#x[0-9a-fA-F]+);)/;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** Finds `&`s that start no entity reference; remembers the next `&` so the whole scan stays linear. */
class AmpChecker {
  private next: number;

  constructor(private readonly text: string) {
    this.next = text.indexOf('&');
  }

  /** True when [from, to) holds an `&` that starts no entity reference. */
  bad(from: number, to: number): boolean {
    if (this.next < 0) return false;
    if (this.next < from) {
      this.next = this.text.indexOf('&', from);
      if (this.next < 0) return false;
    }
    return this.next < to && BAD_AMP.test(this.text.slice(this.next, to));
  }
}

/**
 * Checks that `text` is a well-formed XML document without DOCTYPE (those are
 * refused earlier): tags nest and match, exactly one root, no text outside it,
 * attributes quoted and not repeated, `&` only in entity references, no `<` in
 * attribute values, comments, CDATA and processing instructions closed.
 * Returns a description of the first problem, or undefined. A single pass of
 * `indexOf` jumps: the parser that follows is lenient (it accepts mismatched
 * end tags), so this is what makes malformed input an error, at a fraction of
 * the cost of fast-xml-parser's XMLValidator.
 */
export function wellFormednessError(text: string): string | undefined {
  const n = text.length;
  const stack: string[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let rootClosed = false;
  let rootSeen = false;
  const amps = new AmpChecker(text);
  for (;;) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) {
      if (stack.length === 0) {
        for (let k = i; k < end; k++) if (!isSpace(text.charCodeAt(k))) return `text outside the root element at offset ${k}`;
      } else if (amps.bad(i, end)) {
        return `'&' that starts no entity reference near offset ${i}`;
      }
    }
    if (lt < 0) break;
    const c = text.charCodeAt(lt + 1);
    if (c === 0x3f /* ? */) {
      const e = text.indexOf('?>', lt + 2);
      if (e < 0) return `unclosed processing instruction at offset ${lt}`;
      i = e + 2;
      continue;
    }
    if (c === 0x21 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const e = text.indexOf('-->', lt + 4);
        if (e < 0) return `unclosed comment at offset ${lt}`;
        i = e + 3;
        continue;
      }
      if (text.startsWith('<![CDATA[', lt) && stack.length > 0) {
        const e = text.indexOf(']]>', lt + 9);
        if (e < 0) return `unclosed CDATA section at offset ${lt}`;
        i = e + 3;
        continue;
      }
      return `unexpected markup at offset ${lt}`;
    }
    if (c === 0x2f /* / */) {
      const e = text.indexOf('>', lt + 2);
      if (e < 0) return `unclosed end tag at offset ${lt}`;
      const name = text.slice(lt + 2, e).trimEnd();
      const open = stack.pop();
      if (open === undefined) return `end tag </${name}> without a start tag`;
      if (open !== name) return `end tag </${name}> does not match <${open}>`;
      if (stack.length === 0) rootClosed = true;
      i = e + 1;
      continue;
    }
    // start tag
    if (rootClosed) return `more than one root element (offset ${lt})`;
    rootSeen = true;
    let k = lt + 1;
    while (k < n) {
      const ch = text.charCodeAt(k);
      if (isSpace(ch) || ch === 0x3e /* > */ || ch === 0x2f /* / */) break;
      k++;
    }
    const name = text.slice(lt + 1, k);
    if (!NAME.test(name)) return `invalid element name ${JSON.stringify(name)} at offset ${lt}`;
    const attrs: string[] = [];
    for (;;) {
      const before = k;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      if (k >= n) return `unclosed start tag <${name}>`;
      const ch = text.charCodeAt(k);
      if (ch === 0x3e /* > */) {
        stack.push(name);
        i = k + 1;
        break;
      }
      if (ch === 0x2f /* / */) {
        if (text.charCodeAt(k + 1) !== 0x3e) return `'/' not followed by '>' in <${name}>`;
        if (stack.length === 0) rootClosed = true;
        i = k + 2;
        break;
      }
      if (k === before) return `missing whitespace before an attribute of <${name}>`;
      const eq = text.indexOf('=', k);
      if (eq < 0) return `attribute without value in <${name}>`;
      const attrName = text.slice(k, eq).trimEnd();
      if (!NAME.test(attrName)) return `invalid attribute ${JSON.stringify(attrName)} in <${name}>`;
      if (attrs.includes(attrName)) return `repeated attribute ${attrName} in <${name}>`;
      attrs.push(attrName);
      k = eq + 1;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      const q = text.charCodeAt(k);
      if (q !== 0x22 && q !== 0x27) return `unquoted value of attribute ${attrName} in <${name}>`;
      const close = text.indexOf(q === 0x22 ? '"' : "'", k + 1);
      if (close < 0) return `unterminated value of attribute ${attrName} in <${name}>`;
      const lt2 = text.indexOf('<', k + 1);
      if (lt2 >= 0 && lt2 < close) return `'<' in the value of attribute ${attrName} in <${name}>`;
      if (amps.bad(k + 1, close)) return `'&' that starts no entity reference in attribute ${attrName} of <${name}>`;
      k = close + 1;
    }
  }
  if (stack.length > 0) return `unclosed element <${stack[stack.length - 1]}>`;
  if (!rootSeen) return 'no root element';
  return undefined;
}

/** prefix ('' = default) -> distinct namespace URIs declared for it. */
function declaredNamespaces(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  XMLNS_DECL.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = XMLNS_DECL.exec(text)) !== null) {
    const prefix = m[1] ?? '';
    const uri = unescapeXml(m[2] ?? m[3] ?? '');
    const list = out.get(prefix);
    if (!list) out.set(prefix, [uri]);
    else if (!list.includes(uri)) list.push(uri);
  }
  return out;
}

// ------------------------------------------------------------------ reading

const ENTITY = /&(?:(lt|gt|amp|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Replaces the five predefined entities and character references (the parser leaves them as written). */
export function unescapeXml(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(ENTITY, (m: string, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return NAMED[name];
    const cp = dec ? parseInt(dec, 10) : parseInt(hex as string, 16);
    // Out-of-range references are left as written rather than throwing a RangeError.
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}

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

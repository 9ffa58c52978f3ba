/**
 * Writing NDC documents with xmlbuilder2: the message root, the recurring
 * shapes (money, reference lists, nil elements, extension elements), fast
 * DOM appends for hot paths, and detached subtrees for large responses.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { Amount, MessageHeader } from './ndc.model';
import { EXT_NS, EXT_PREFIX, NDC_NS, XMLNS_NS, XSI_NS } from './namespaces';

export type { XMLBuilder };

/** Options of every `encode*` function. */
export interface EncodeOptions {
  /**
   * Namespace bound to `ns2` and used for every extension element. Default
   * {@link EXT_NS}; the airline and client pass `AIRLINE_EXTENSION_NAMESPACE`.
   */
  extensionNamespace?: string;
}

/**
 * Starts a message: the XML declaration and the root element in {@link NDC_NS}
 * with `xmlns:ns2` (the extension namespace, default {@link EXT_NS}),
 * `xmlns:xsi` and the header attributes (Target, Version, TimeStamp,
 * TransactionIdentifier, CorrelationID; absent optional ones are omitted).
 * Add children in XSD order, then call {@link endMessage}.
 */
export function startMessage(root: string, h: MessageHeader, opts: EncodeOptions = {}): XMLBuilder {
  const el = create({ version: '1.0', encoding: 'UTF-8' })
    .ele(NDC_NS, root)
    .att(XMLNS_NS, 'xmlns:ns2', opts.extensionNamespace ?? EXT_NS)
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att('Target', h.target)
    .att('Version', h.version);
  if (h.timeStamp !== undefined) el.att('TimeStamp', h.timeStamp);
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
    createElement(qualifiedName: string): DomElement;
    createElementNS(namespace: string, qualifiedName: string): DomElement;
    createTextNode(data: string): unknown;
  } | null;
  /** `null` in the namespace-less documents of {@link addDetached}. */
  readonly namespaceURI: string | null;
  appendChild(node: unknown): unknown;
  setAttribute(name: string, value: string): void;
  setAttributeNS(namespace: string, qualifiedName: string, value: string): void;
  lookupNamespaceURI(prefix: string | null): string | null;
}

/** The DOM element behind an xmlbuilder2 builder. */
export function domOf(b: XMLBuilder): DomElement {
  return b.node as unknown as DomElement;
}

/**
 * Creates `<name>` for `parent`: in the NDC namespace, or without namespace
 * under a namespace-less parent (a subtree of {@link addDetached}, whose text
 * lands where NDC is the default namespace).
 */
function createFor(parent: DomElement, name: string): DomElement {
  const doc = parent.ownerDocument!;
  return parent.namespaceURI === null ? doc.createElement(name) : doc.createElementNS(NDC_NS, name);
}

/** Appends `<name>` in the NDC namespace (with `text` when given) to a DOM element and returns it. */
export function domEl(parent: DomElement, name: string, text?: string): DomElement {
  const doc = parent.ownerDocument!;
  const el = createFor(parent, name);
  parent.appendChild(el);
  if (text !== undefined) el.appendChild(doc.createTextNode(text));
  return el;
}

/**
 * The currency to write as `Code`: the amount's; an amount without one (decoded from a message
 * that gave none) is written without `Code`, which the 17.2 amount types allow, unless `required`
 * says the element's type demands it (then a plain `Error`).
 */
function codeOf(name: string, m: Amount, required: boolean): string | undefined {
  if (m.currency === undefined && required)
    throw new Error(`${name}: an amount without currency cannot be written here`);
  return m.currency;
}

/**
 * Appends `<name Code="CUR">amount</name>` to a DOM element and returns it (no `Code` for an amount
 * without currency, unless `codeRequired`, default `false`: then it throws).
 */
export function domMoney(parent: DomElement, name: string, m: Amount, codeRequired = false): DomElement {
  const doc = parent.ownerDocument!;
  const el = createFor(parent, name);
  parent.appendChild(el);
  const code = codeOf(name, m, codeRequired);
  if (code !== undefined) el.setAttribute('Code', code);
  el.appendChild(doc.createTextNode(m.value));
  return el;
}

/**
 * Sets a prefixed attribute such as `xsi:type` (the root declares the prefix):
 * namespaced in a namespace-aware document, by qualified name in a subtree of
 * {@link addDetached}.
 */
export function domAttrNS(el: DomElement, namespace: string, qualifiedName: string, value: string): void {
  if (el.namespaceURI === null) el.setAttribute(qualifiedName, value);
  else el.setAttributeNS(namespace, qualifiedName, value);
}

/** Appends the extension element `<ns2:local>` (the document's extension namespace) to a DOM element and returns it. */
export function domExt(parent: DomElement, local: string): DomElement {
  const doc = parent.ownerDocument!;
  const el =
    parent.namespaceURI === null
      ? doc.createElement(EXT_PREFIX + local)
      : doc.createElementNS(parent.lookupNamespaceURI('ns2') ?? EXT_NS, EXT_PREFIX + local);
  parent.appendChild(el);
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
 * is given with {@link domEl}, {@link domMoney}, {@link domAttrNS} and {@link domExt}, as if it
 * appended to `parent`. The subtree is built in a wrapper element of a small
 * namespace-less xmlbuilder2 document of its own, serialised by xmlbuilder2
 * straight away (`toString`) and dropped; `parent` keeps a placeholder
 * element that {@link endMessage} replaces with that text. The bytes are
 * those of writing into `parent` directly: the text lands where NDC is the
 * default namespace and the root declares `ns2`, `xsi` and `xs`.
 *
 * Why: a large response holds tens of thousands of xmlbuilder2 DOM nodes.
 * Kept until the end they all survive V8's young-generation collections and
 * get copied and promoted, which was about half of the encode time; built
 * and serialised one offer at a time, they die young and cost little. A
 * namespace-less document also lets xmlbuilder2 skip QName validation when
 * creating elements and take its plain serialiser, which copies no namespace
 * prefix map per element.
 */
export function addDetached(parent: XMLBuilder, write: (el: DomElement) => void): void {
  const wrapper = create().ele(DETACHED_NAME);
  write(domOf(wrapper));
  const xml = wrapper.toString({ prettyPrint: false });
  // `<ndcDetached>` + content + `</ndcDetached>`, or `<ndcDetached/>`.
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

/** Adds `<name Code="CUR">amount</name>` and returns it (`Code` as in {@link domMoney}). */
export function addMoney(parent: XMLBuilder, name: string, m: Amount, codeRequired = false): XMLBuilder {
  const el = parent.ele(name);
  const code = codeOf(name, m, codeRequired);
  if (code !== undefined) el.att('Code', code);
  return el.txt(m.value);
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

/** The extension namespace of the document `el` belongs to: what its `ns2` prefix is bound to ({@link startMessage}). */
function extensionNamespaceOf(el: XMLBuilder): string {
  return (
    (el.node as unknown as { lookupNamespaceURI(prefix: string): string | null }).lookupNamespaceURI('ns2') ?? EXT_NS
  );
}

/** Adds an extension element `<ns2:local>` in the document's extension namespace (optionally with text) and returns it. */
export function addExt(parent: XMLBuilder, local: string, value?: string): XMLBuilder {
  const el = parent.ele(extensionNamespaceOf(parent), EXT_PREFIX + local);
  if (value !== undefined) el.txt(value);
  return el;
}

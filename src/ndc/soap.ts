/**
 * The SOAP bindings of NDC: the same NDC document, sent either as is
 * (`plain`) or as the single child of a SOAP 1.1 or 1.2 `Envelope/Body`.
 *
 * Reading is transparent: every `decode*` (through `parseNdc`) and
 * `ndcRootName` accept an envelope of either version, ignore any SOAP
 * `Header`, and read the NDC root inside `Body` with the namespace
 * declarations of `Envelope` and `Body` in scope. A `Fault` body is the decode
 * error `SOAP_FAULT`. Writing is explicit: encode the NDC document, then
 * {@link wrapInBinding}; send it with {@link bindingHeaders}.
 */
import { NdcDecodeError } from './ndc-decode-error';
import {
  declaredNamespaces,
  elementEnd,
  escapeAttr,
  inlineElement,
  localName,
  prefixOf,
  scanRoot,
  scanStartTag,
  unescapeXml,
  withDecls,
  type NamespaceScope,
  type StartTag,
} from './xml-scan';

/**
 * How an NDC message travels: bare, inside a SOAP 1.1 or SOAP 1.2 envelope, or (`ndcexchange`)
 * as the payload of an NDC Exchange hub's `NDCMSG_Envelope` inside a SOAP 1.1 Body.
 */
export type NdcBinding = 'plain' | 'soap11' | 'soap12' | 'ndcexchange';

/** Every binding, e.g. to validate `AIRLINE_BINDING`. */
export const NDC_BINDINGS: readonly NdcBinding[] = ['plain', 'soap11', 'soap12', 'ndcexchange'];

/** Default namespace of the NDC Exchange envelope (`NDCMSG_*` elements); hubs use their own: see {@link NdcExchangeSettings}. */
export const NDC_EXCHANGE_NS = 'http://www.ndc-saga.dev/schema/ndc-exchange/1';

/** Default `NDCMSG_Header/Message/SchemaVersion`: NDC 17.2. */
export const NDC_EXCHANGE_SCHEMA_VERSION = 'YY.2017.2';

/** What the `ndcexchange` binding writes in the envelope; every field is optional. */
export interface NdcExchangeSettings {
  /** Namespace of the `NDCMSG_*` elements. Default {@link NDC_EXCHANGE_NS}. */
  namespace?: string;
  /** `NDCMSG_Header/Sender/SellerID`: the sender's id at the hub. Default: none written. */
  sellerId?: string;
  /** `NDCMSG_Header/Recipient/Company`: the company the hub routes to. Default: none written. */
  recipient?: string;
  /** `NDCMSG_Header/Message/SchemaVersion`. Default {@link NDC_EXCHANGE_SCHEMA_VERSION}. */
  schemaVersion?: string;
}

/** SOAP 1.1 envelope namespace. */
export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
/** SOAP 1.2 envelope namespace. */
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';

const SOAP_NS = { soap11: SOAP11_NS, soap12: SOAP12_NS } as const;
/** Prefix {@link wrapInBinding} writes: `soap` for 1.1, `env` for 1.2 (as in the W3C primer). */
const SOAP_PREFIX = { soap11: 'soap', soap12: 'env' } as const;

/** Content-Type of each SOAP binding (SOAP 1.2 may add an `action` parameter: see {@link bindingHeaders}). */
export const SOAP_CONTENT_TYPE = {
  soap11: 'text/xml; charset=utf-8',
  soap12: 'application/soap+xml; charset=utf-8',
} as const;

function versionOf(uri: string | undefined): 'plain' | 'soap11' | 'soap12' {
  if (uri === SOAP11_NS) return 'soap11';
  if (uri === SOAP12_NS) return 'soap12';
  return 'plain';
}

/** Local name of the NDC Exchange envelope (in the hub's namespace, whichever it is). */
const EXCHANGE_ENVELOPE = 'NDCMSG_Envelope';

/**
 * The binding of a document, from its root start tag only (no parse, no
 * checks): `soap11`/`soap12` for an `Envelope` in that SOAP namespace, else
 * `plain`. Cheap enough to call on every request to answer in the same
 * binding.
 */
export function detectBinding(xml: string | Buffer): NdcBinding {
  // The root start tag is near the start; 64 KiB leaves room for a long prolog.
  const head = typeof xml === 'string' ? xml : xml.subarray(0, 64 * 1024).toString('utf8');
  const root = scanRoot(head);
  if (root !== undefined && localName(root.qname) === EXCHANGE_ENVELOPE) return 'ndcexchange';
  if (root === undefined || localName(root.qname) !== 'Envelope') return 'plain';
  const binding = versionOf(declaredNamespaces(root.attrs).get(prefixOf(root.qname))?.[0]);
  if (binding === 'plain') return binding;
  try {
    const content = soapContent(head);
    if (content !== undefined && localName(content.tag.qname) === EXCHANGE_ENVELOPE) return 'ndcexchange';
  } catch {
    // A Fault or an envelope without Body: the SOAP binding; decoding says what is wrong.
  }
  return binding;
}

/**
 * Puts an encoded NDC document (with or without its XML declaration) in the
 * `Envelope/Body` of `binding`, with no SOAP Header; `plain` returns `xml`
 * unchanged. The envelope prefix is `soap` (1.1) or `env` (1.2).
 */
export function wrapInBinding(xml: string, binding: NdcBinding, exchange: NdcExchangeSettings = {}): string {
  if (binding === 'plain') return xml;
  const doc = xml.replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, '');
  const body = binding === 'ndcexchange' ? exchangeEnvelope(doc, exchange) : doc;
  const p = SOAP_PREFIX[binding === 'ndcexchange' ? 'soap11' : binding];
  const ns = SOAP_NS[binding === 'ndcexchange' ? 'soap11' : binding];
  return (
    `<?xml version="1.0" encoding="UTF-8"?><${p}:Envelope xmlns:${p}="${ns}"><${p}:Body>` +
    body +
    `</${p}:Body></${p}:Envelope>`
  );
}

/**
 * The NDC Exchange envelope around the NDC document `doc`: `NDCMSG_Header` (the sender's seller
 * id, the recipient company, `SchemaType` NDC, the schema version and the message name) and the
 * document as CDATA in `NDCMSG_Body/NDCMSG_Payload`, all in the hub's namespace (prefix `ndcx`).
 */
function exchangeEnvelope(doc: string, s: NdcExchangeSettings): string {
  const el = (name: string, content: string) => `<ndcx:${name}>${content}</ndcx:${name}>`;
  const text = (v: string) => escapeAttr(v).replace(/>/g, '&gt;');
  const root = scanRoot(doc);
  const header =
    (s.sellerId !== undefined ? el('Sender', el('SellerID', text(s.sellerId))) : '') +
    (s.recipient !== undefined ? el('Recipient', el('Company', text(s.recipient))) : '') +
    el(
      'Message',
      el('SchemaType', 'NDC') +
        el('SchemaVersion', text(s.schemaVersion ?? NDC_EXCHANGE_SCHEMA_VERSION)) +
        (root !== undefined ? el('Name', text(localName(root.qname))) : ''),
    );
  // A CDATA section cannot hold `]]>`: split it across two sections.
  const cdata = `<![CDATA[${doc.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
  return (
    `<ndcx:${EXCHANGE_ENVELOPE} xmlns:ndcx="${escapeAttr(s.namespace ?? NDC_EXCHANGE_NS)}">` +
    el('NDCMSG_Header', header) +
    el('NDCMSG_Body', el('NDCMSG_Payload', cdata)) +
    `</ndcx:${EXCHANGE_ENVELOPE}>`
  );
}

/** The SOAP action of an NDC message: its root name, e.g. `AirShoppingRQ`. */
export function soapAction(root: string): string {
  return root;
}

/**
 * HTTP headers a client sends with a message of `root` in `binding`:
 * - `plain`: `Content-Type: plainContentType` (the endpoint's NDC media type);
 * - `soap11`: `Content-Type: text/xml; charset=utf-8` and `SOAPAction: "<root>"` (SOAP 1.1 requires the header);
 * - `soap12`: `Content-Type: application/soap+xml; charset=utf-8; action="<root>"`.
 */
export function bindingHeaders(binding: NdcBinding, root: string, plainContentType: string): Record<string, string> {
  switch (binding) {
    case 'plain':
      return { 'Content-Type': plainContentType };
    case 'soap11':
    case 'ndcexchange':
      return { 'Content-Type': SOAP_CONTENT_TYPE.soap11, SOAPAction: `"${soapAction(root)}"` };
    case 'soap12':
      return { 'Content-Type': `${SOAP_CONTENT_TYPE.soap12}; action="${soapAction(root)}"` };
  }
}

/** Content-Type of a response in `binding` (the request's binding); `plainContentType` for `plain`. */
export function bindingContentType(binding: NdcBinding, plainContentType: string): string {
  if (binding === 'plain') return plainContentType;
  return SOAP_CONTENT_TYPE[binding === 'ndcexchange' ? 'soap11' : binding];
}

// ------------------------------------------------------------------ reading

/** The first element inside a SOAP Body, with what is needed to cut it out. */
interface SoapContent {
  binding: 'soap11' | 'soap12';
  /** The first element of Body. */
  tag: StartTag;
  /** prefix -> namespace declared on Envelope and Body (Body wins). */
  scope: NamespaceScope;
}

function isSoapEl(tag: StartTag, local: string, ns: string, scope: NamespaceScope): boolean {
  return localName(tag.qname) === local && withDecls(scope, tag.attrs).get(prefixOf(tag.qname)) === ns;
}

function faultText(fault: string): string {
  const pick = (names: string): string | undefined => {
    const m = new RegExp(`<(?:[\\w.-]+:)?(?:${names})\\b[^>]*>([^<]*)<`).exec(fault);
    return m ? unescapeXml(m[1].trim()) : undefined;
  };
  const code = pick('faultcode|Value');
  const reason = pick('faultstring|Text');
  return [code, reason].filter((s) => s !== undefined && s !== '').join(': ') || 'no reason given';
}

/**
 * Finds the NDC element of a SOAP document: undefined when the root is not a
 * SOAP `Envelope`. Throws `MISSING` for an envelope without a Body element,
 * and `SOAP_FAULT` when the Body holds a SOAP Fault.
 */
function soapContent(text: string): SoapContent | undefined {
  const env = scanRoot(text);
  if (env === undefined || localName(env.qname) !== 'Envelope') return undefined;
  let scope = withDecls(new Map(), env.attrs);
  const binding = versionOf(scope.get(prefixOf(env.qname)));
  if (binding === 'plain') return undefined;
  const ns = SOAP_NS[binding];
  let tag = env.selfClosing ? undefined : scanStartTag(text, env.end);
  if (tag !== undefined && isSoapEl(tag, 'Header', ns, scope)) tag = scanStartTag(text, elementEnd(text, tag));
  if (tag === undefined || !isSoapEl(tag, 'Body', ns, scope)) {
    throw new NdcDecodeError('MISSING', '/Envelope/Body', 'a SOAP Envelope needs a Body holding the NDC message');
  }
  scope = withDecls(scope, tag.attrs);
  const content = tag.selfClosing ? undefined : scanStartTag(text, tag.end);
  if (content === undefined)
    throw new NdcDecodeError('MISSING', '/Envelope/Body', 'the SOAP Body holds no NDC message');
  if (isSoapEl(content, 'Fault', ns, scope)) {
    const fault = text.slice(content.start, elementEnd(text, content));
    throw new NdcDecodeError(
      'SOAP_FAULT',
      '/Envelope/Body/Fault',
      `SOAP Fault instead of an NDC message (${faultText(fault)})`,
    );
  }
  return { binding, tag: content, scope };
}

/**
 * `text` itself when it is not a SOAP envelope; else the NDC element of its
 * Body as a document of its own, with the namespace declarations it
 * inherited from Envelope and Body copied onto its start tag (unless it
 * redeclares them), so prefixes bound on the envelope still resolve.
 * `text` must be well-formed (checked before).
 */
export function unwrapSoap(text: string): { binding: NdcBinding; text: string } {
  const root = scanRoot(text);
  if (root !== undefined && localName(root.qname) === EXCHANGE_ENVELOPE) {
    return { binding: 'ndcexchange', text: exchangePayload(text, root, withDecls(new Map(), root.attrs)) };
  }
  const c = soapContent(text);
  if (c === undefined) return { binding: 'plain', text };
  if (localName(c.tag.qname) === EXCHANGE_ENVELOPE) {
    return { binding: 'ndcexchange', text: exchangePayload(text, c.tag, withDecls(c.scope, c.tag.attrs)) };
  }
  return { binding: c.binding, text: inlineElement(text, c.tag, c.scope) };
}

const PAYLOAD_PATH = `/${EXCHANGE_ENVELOPE}/NDCMSG_Body/NDCMSG_Payload`;

/** The next child element of the element whose content starts at `from` (undefined at its end tag). */
function nextChild(text: string, from: number): StartTag | undefined {
  let i = from;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0 || text.charCodeAt(lt + 1) === 0x2f /* / */) return undefined;
    for (const [open, close] of [
      ['<!--', '-->'],
      ['<?', '?>'],
      ['<![CDATA[', ']]>'],
    ]) {
      if (text.startsWith(open, lt)) {
        i = text.indexOf(close, lt) + close.length;
        break;
      }
    }
    if (i > lt) continue;
    return scanStartTag(text, lt);
  }
}

/** The child of `parent` named `local` (any prefix), or undefined. */
function childNamed(text: string, parent: StartTag, local: string): StartTag | undefined {
  if (parent.selfClosing) return undefined;
  for (let t = nextChild(text, parent.end); t !== undefined; t = nextChild(text, elementEnd(text, t))) {
    if (localName(t.qname) === local) return t;
  }
  return undefined;
}

/**
 * The NDC document carried in `NDCMSG_Body/NDCMSG_Payload` of the NDC Exchange envelope `env`:
 * inline XML (the element, with its inherited namespaces), or text (CDATA sections and escaped
 * characters, read as written). An envelope without a payload is `MISSING`, naming the path.
 */
function exchangePayload(text: string, env: StartTag, scope: NamespaceScope): string {
  const body = childNamed(text, env, 'NDCMSG_Body');
  const payload = body === undefined ? undefined : childNamed(text, body, 'NDCMSG_Payload');
  if (body === undefined || payload === undefined || payload.selfClosing) {
    throw new NdcDecodeError('MISSING', PAYLOAD_PATH, 'the NDC Exchange envelope holds no NDCMSG_Body/NDCMSG_Payload');
  }
  const inner = withDecls(withDecls(scope, body.attrs), payload.attrs);
  const element = nextChild(text, payload.end);
  if (element !== undefined) return inlineElement(text, element, inner);
  const doc = textContent(text, payload);
  if (doc === '') throw new NdcDecodeError('MISSING', PAYLOAD_PATH, 'NDCMSG_Payload is empty');
  return doc;
}

/** The text of a non-empty element without child elements: CDATA sections and escaped characters, read as written, trimmed. */
function textContent(text: string, tag: StartTag): string {
  if (tag.selfClosing) return '';
  const raw = text.slice(tag.end, elementEnd(text, tag) - `</${tag.qname}>`.length);
  let out = '';
  const cdata = /<!\[CDATA\[([\s\S]*?)]]>/g;
  let last = 0;
  for (let m = cdata.exec(raw); m !== null; m = cdata.exec(raw)) {
    out += unescapeXml(raw.slice(last, m.index)) + m[1];
    last = m.index + m[0].length;
  }
  return (out + unescapeXml(raw.slice(last))).trim();
}

/** What the `NDCMSG_Header` of an NDC Exchange envelope says; a field is absent when the header does not give it. */
export interface NdcExchangeHeader {
  /** Namespace of the envelope's `NDCMSG_*` elements (the hub's). */
  namespace?: string;
  /** `Sender/SellerID`. */
  sellerId?: string;
  /** `Recipient/Company`. */
  recipient?: string;
  /** `Message/SchemaType`, e.g. `NDC`. */
  schemaType?: string;
  /** `Message/SchemaVersion`, e.g. `YY.2017.2`. */
  schemaVersion?: string;
  /** `Message/Name`, e.g. `AirShoppingRQ`. */
  name?: string;
}

const HEADER_FIELDS = {
  sellerId: ['Sender', 'SellerID'],
  recipient: ['Recipient', 'Company'],
  schemaType: ['Message', 'SchemaType'],
  schemaVersion: ['Message', 'SchemaVersion'],
  name: ['Message', 'Name'],
} as const;

/**
 * The `NDCMSG_Header` of the NDC Exchange envelope of `text` (bare or in a SOAP Body, any prefix),
 * or undefined when `text` is not such an envelope. `text` must be well-formed (checked before).
 */
export function readExchangeHeader(text: string): NdcExchangeHeader | undefined {
  const root = scanRoot(text);
  let env: StartTag | undefined;
  let scope: NamespaceScope = new Map();
  if (root !== undefined && localName(root.qname) === EXCHANGE_ENVELOPE) env = root;
  else {
    const c = soapContent(text);
    if (c !== undefined && localName(c.tag.qname) === EXCHANGE_ENVELOPE) [env, scope] = [c.tag, c.scope];
  }
  if (env === undefined) return undefined;
  const out: NdcExchangeHeader = {};
  const namespace = withDecls(scope, env.attrs).get(prefixOf(env.qname));
  if (namespace !== undefined) out.namespace = namespace;
  const header = childNamed(text, env, 'NDCMSG_Header');
  for (const [field, [group, name]] of Object.entries(HEADER_FIELDS)) {
    const parent = header && childNamed(text, header, group);
    const el = parent && childNamed(text, parent, name);
    const value = el && textContent(text, el);
    if (value) out[field as keyof typeof HEADER_FIELDS] = value;
  }
  return out;
}

/** A SchemaVersion that reads as NDC 17.2: `17.2` or `2017.2`, alone or after a designator such as `YY.` or `LH-`. */
const VERSION_17_2 = /^(?:[A-Z0-9]{2,3}[.\-_ ])?(?:20)?17\.2$/i;

/**
 * Why the NDC Exchange header `h` does not announce an NDC 17.2 message, naming the field, or
 * undefined when it does. Read liberally: a field left out is accepted, `SchemaType` in any
 * case, and the version with any airline or hub prefix (`YY.2017.2`, `LH.17.2`, `2017.2`).
 */
export function exchangeSchemaProblem(h: NdcExchangeHeader): string | undefined {
  if (h.schemaType !== undefined && h.schemaType.toUpperCase() !== 'NDC')
    return `NDCMSG_Header/Message/SchemaType ${h.schemaType} is not NDC`;
  if (h.schemaVersion !== undefined && !VERSION_17_2.test(h.schemaVersion))
    return `NDCMSG_Header/Message/SchemaVersion ${h.schemaVersion} is not NDC 17.2 (e.g. YY.2017.2)`;
  return undefined;
}

/** The root start tag of the NDC message: the document's root, or the first element of a SOAP Body. */
export function ndcRootTag(text: string): StartTag | undefined {
  if (detectBinding(text) === 'ndcexchange') return scanRoot(unwrapSoap(text).text);
  return soapContent(text)?.tag ?? scanRoot(text);
}

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
  localName,
  prefixOf,
  scanRoot,
  scanStartTag,
  unescapeXml,
  type StartTag,
} from './xml-scan';

/** How an NDC message travels: bare, or inside a SOAP 1.1 or SOAP 1.2 envelope. */
export type NdcBinding = 'plain' | 'soap11' | 'soap12';

/** Every binding, e.g. to validate `AIRLINE_BINDING`. */
export const NDC_BINDINGS: readonly NdcBinding[] = ['plain', 'soap11', 'soap12'];

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

function versionOf(uri: string | undefined): NdcBinding {
  if (uri === SOAP11_NS) return 'soap11';
  if (uri === SOAP12_NS) return 'soap12';
  return 'plain';
}

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
  if (root === undefined || localName(root.qname) !== 'Envelope') return 'plain';
  return versionOf(declaredNamespaces(root.attrs).get(prefixOf(root.qname))?.[0]);
}

/**
 * Puts an encoded NDC document (with or without its XML declaration) in the
 * `Envelope/Body` of `binding`, with no SOAP Header; `plain` returns `xml`
 * unchanged. The envelope prefix is `soap` (1.1) or `env` (1.2).
 */
export function wrapInBinding(xml: string, binding: NdcBinding): string {
  if (binding === 'plain') return xml;
  const body = xml.replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, '');
  const p = SOAP_PREFIX[binding];
  return (
    `<?xml version="1.0" encoding="UTF-8"?><${p}:Envelope xmlns:${p}="${SOAP_NS[binding]}"><${p}:Body>` +
    body +
    `</${p}:Body></${p}:Envelope>`
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
      return { 'Content-Type': SOAP_CONTENT_TYPE.soap11, SOAPAction: `"${soapAction(root)}"` };
    case 'soap12':
      return { 'Content-Type': `${SOAP_CONTENT_TYPE.soap12}; action="${soapAction(root)}"` };
  }
}

/** Content-Type of a response in `binding` (the request's binding); `plainContentType` for `plain`. */
export function bindingContentType(binding: NdcBinding, plainContentType: string): string {
  return binding === 'plain' ? plainContentType : SOAP_CONTENT_TYPE[binding];
}

// ------------------------------------------------------------------ reading

/** The NDC root start tag inside a SOAP Body, with what is needed to cut it out. */
interface SoapContent {
  binding: Exclude<NdcBinding, 'plain'>;
  /** The first element of Body. */
  tag: StartTag;
  /** prefix -> namespace declared on Envelope and Body (Body wins). */
  scope: Map<string, string>;
}

function malformed(what: string): NdcDecodeError {
  return new NdcDecodeError('MALFORMED_XML', '', `malformed XML: ${what}`);
}

/** Offset just after the end tag of the element `tag` starts (depth count; comments, CDATA and PIs skipped). */
function elementEnd(text: string, tag: StartTag): number {
  if (tag.selfClosing) return tag.end;
  let depth = 1;
  let i = tag.end;
  while (depth > 0) {
    const lt = text.indexOf('<', i);
    if (lt < 0) throw malformed(`unclosed element <${tag.qname}>`);
    const c = text.charCodeAt(lt + 1);
    let close: string | undefined;
    if (c === 0x2f /* / */) {
      depth--;
      close = '>';
    } else if (c === 0x3f /* ? */) close = '?>';
    else if (text.startsWith('<!--', lt)) close = '-->';
    else if (text.startsWith('<![CDATA[', lt)) close = ']]>';
    if (close !== undefined) {
      const e = text.indexOf(close, lt + 2);
      if (e < 0) throw malformed(`unclosed markup at offset ${lt}`);
      i = e + close.length;
      continue;
    }
    const t = scanStartTag(text, lt);
    if (t === undefined) throw malformed(`bad start tag at offset ${lt}`);
    if (!t.selfClosing) depth++;
    i = t.end;
  }
  return i;
}

function withDecls(scope: Map<string, string>, attrs: string): Map<string, string> {
  const decls = declaredNamespaces(attrs);
  if (decls.size === 0) return scope;
  const out = new Map(scope);
  for (const [prefix, uris] of decls) out.set(prefix, uris[uris.length - 1]);
  return out;
}

function isSoapEl(tag: StartTag, local: string, ns: string, scope: Map<string, string>): boolean {
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

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/**
 * `text` itself when it is not a SOAP envelope; else the NDC element of its
 * Body as a document of its own, with the namespace declarations it
 * inherited from Envelope and Body copied onto its start tag (unless it
 * redeclares them), so prefixes bound on the envelope still resolve.
 * `text` must be well-formed (checked before).
 */
export function unwrapSoap(text: string): { binding: NdcBinding; text: string } {
  const c = soapContent(text);
  if (c === undefined) return { binding: 'plain', text };
  const { tag, scope } = c;
  const own = declaredNamespaces(tag.attrs);
  let inherited = '';
  for (const [prefix, uri] of scope) {
    if (!own.has(prefix)) inherited += ` ${prefix === '' ? 'xmlns' : 'xmlns:' + prefix}="${escapeAttr(uri)}"`;
  }
  const nameEnd = tag.start + 1 + tag.qname.length;
  return {
    binding: c.binding,
    text: text.slice(tag.start, nameEnd) + inherited + text.slice(nameEnd, elementEnd(text, tag)),
  };
}

/** The root start tag of the NDC message: the document's root, or the first element of a SOAP Body. */
export function ndcRootTag(text: string): StartTag | undefined {
  return soapContent(text)?.tag ?? scanRoot(text);
}

/**
 * Cheap looks at an XML document without parsing it: the root start tag, the
 * namespace declarations, entity unescaping. Used before the parse (routing,
 * namespace checks, SOAP envelopes, provider wrappers).
 */
import { NdcDecodeError } from './ndc-decode-error';

const XMLNS_DECL = /\bxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const PROLOG_ITEM = /\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->)/y;
const START_TAG = /\s*<([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;

/** A start tag found by {@link scanStartTag}. */
export interface StartTag {
  /** The name as written, `prefix:local` or `local`. */
  qname: string;
  /** Everything between the name and `>` (attributes, perhaps a trailing `/`). */
  attrs: string;
  /** Offset of `<`. */
  start: number;
  /** Offset just after `>`. */
  end: number;
  /** True for `<x/>`. */
  selfClosing: boolean;
}

/**
 * The first start tag at or after `pos`, skipping whitespace, comments and
 * processing instructions; undefined when something else comes first.
 */
export function scanStartTag(text: string, pos: number): StartTag | undefined {
  for (;;) {
    PROLOG_ITEM.lastIndex = pos;
    if (!PROLOG_ITEM.test(text)) break;
    pos = PROLOG_ITEM.lastIndex;
  }
  START_TAG.lastIndex = pos;
  const m = START_TAG.exec(text);
  if (!m) return undefined;
  const selfClosing = m[2].endsWith('/');
  return {
    qname: m[1],
    attrs: selfClosing ? m[2].slice(0, -1) : m[2],
    start: START_TAG.lastIndex - m[0].length + m[0].indexOf('<'),
    end: START_TAG.lastIndex,
    selfClosing,
  };
}

/** Finds the root start tag without parsing the document (undefined when there is none). */
export function scanRoot(text: string): StartTag | undefined {
  return scanStartTag(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
}

/** The local part of `prefix:local`. */
export function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

/** The prefix of `prefix:local` (`''` when there is none). */
export function prefixOf(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? '' : qname.slice(0, i);
}

/** prefix ('' = default) -> distinct namespace URIs declared for it in `text` (a start tag's attributes, or a whole document). */
export function declaredNamespaces(text: string): Map<string, string[]> {
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

/** prefix ('' = default) -> namespace URI in scope at an element. */
export type NamespaceScope = ReadonlyMap<string, string>;

function malformed(what: string): NdcDecodeError {
  return new NdcDecodeError('MALFORMED_XML', '', `malformed XML: ${what}`);
}

/** Where the markup at `lt` (a PI, comment or CDATA section) ends, or undefined when `lt` starts a tag. */
function markupEnd(text: string, lt: number): number | undefined {
  const c = text.charCodeAt(lt + 1);
  let close: string | undefined;
  if (c === 0x3f /* ? */) close = '?>';
  else if (text.startsWith('<!--', lt)) close = '-->';
  else if (text.startsWith('<![CDATA[', lt)) close = ']]>';
  if (close === undefined) return undefined;
  const e = text.indexOf(close, lt + 2);
  if (e < 0) throw malformed(`unclosed markup at offset ${lt}`);
  return e + close.length;
}

/** Offset just after the end tag of the element `tag` starts (depth count; comments, CDATA and PIs skipped). */
export function elementEnd(text: string, tag: StartTag): number {
  if (tag.selfClosing) return tag.end;
  let depth = 1;
  let i = tag.end;
  while (depth > 0) {
    const lt = text.indexOf('<', i);
    if (lt < 0) throw malformed(`unclosed element <${tag.qname}>`);
    if (text.charCodeAt(lt + 1) === 0x2f /* / */) {
      depth--;
      i = text.indexOf('>', lt) + 1;
      if (i === 0) throw malformed(`unclosed markup at offset ${lt}`);
      continue;
    }
    const skipped = markupEnd(text, lt);
    if (skipped !== undefined) {
      i = skipped;
      continue;
    }
    const t = scanStartTag(text, lt);
    if (t === undefined) throw malformed(`bad start tag at offset ${lt}`);
    if (!t.selfClosing) depth++;
    i = t.end;
  }
  return i;
}

/** `scope` with the namespace declarations of a start tag's attributes (`scope` itself when it declares none). */
export function withDecls(scope: NamespaceScope, attrs: string): NamespaceScope {
  const decls = declaredNamespaces(attrs);
  if (decls.size === 0) return scope;
  const out = new Map(scope);
  for (const [prefix, uris] of decls) out.set(prefix, uris[uris.length - 1]);
  return out;
}

/** Escapes `&`, `<` and `"` for an attribute value in double quotes. */
export function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/**
 * The element `tag` starts as a document of its own, with the namespaces it inherits (`scope`)
 * declared on its start tag (unless it declares them itself).
 */
export function inlineElement(text: string, tag: StartTag, scope: NamespaceScope): string {
  const own = declaredNamespaces(tag.attrs);
  let inherited = '';
  for (const [prefix, uri] of scope) {
    if (!own.has(prefix)) inherited += ` ${prefix === '' ? 'xmlns' : 'xmlns:' + prefix}="${escapeAttr(uri)}"`;
  }
  const nameEnd = tag.start + 1 + tag.qname.length;
  return text.slice(tag.start, nameEnd) + inherited + text.slice(nameEnd, elementEnd(text, tag));
}

/**
 * The first element of `text` (document order, the root included) whose local name `wanted`
 * accepts, with the namespaces in scope at its parent; undefined when there is none. One linear
 * pass over the tags; `text` must be well-formed (checked before).
 */
export function findElement(
  text: string,
  wanted: (local: string) => boolean,
): { tag: StartTag; scope: NamespaceScope } | undefined {
  const scopes: NamespaceScope[] = [];
  let scope: NamespaceScope = new Map();
  for (let i = 0; ;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) return undefined;
    if (text.charCodeAt(lt + 1) === 0x2f /* / */) {
      scope = scopes.pop() ?? scope;
      i = text.indexOf('>', lt) + 1;
      continue;
    }
    const skipped = markupEnd(text, lt);
    if (skipped !== undefined) {
      i = skipped;
      continue;
    }
    const tag = scanStartTag(text, lt);
    if (tag === undefined) throw malformed(`bad start tag at offset ${lt}`);
    if (wanted(localName(tag.qname))) return { tag, scope };
    if (!tag.selfClosing) {
      scopes.push(scope);
      scope = withDecls(scope, tag.attrs);
    }
    i = tag.end;
  }
}

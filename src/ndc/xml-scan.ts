/**
 * Cheap looks at an XML document without parsing it: the root start tag, the
 * namespace declarations, entity unescaping. Used before the parse (routing,
 * namespace checks, SOAP envelopes).
 */

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

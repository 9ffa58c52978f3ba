/**
 * The hostile-input and well-formedness checks every NDC document passes
 * before it is parsed: a size limit, no DOCTYPE or ENTITY declarations (so
 * entity bombs are never expanded), and a linear well-formedness scan (the
 * parser that follows is lenient and accepts mismatched end tags).
 */
import { NdcDecodeError } from './ndc-decode-error';

/** Default largest document `parseNdc` accepts: 5 MiB. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

const FORBIDDEN_DECL = /<!(?:DOCTYPE|ENTITY)/gi;

/** The document as text, refused with `TOO_LARGE` when it has more than `maxBytes` UTF-8 bytes. */
export function toText(xml: string | Buffer, maxBytes: number): string {
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

/** Refuses any `<!DOCTYPE` or `<!ENTITY` (any case) with `DOCTYPE_FORBIDDEN`. */
export function refuseDeclarations(text: string): void {
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
        for (let k = i; k < end; k++)
          if (!isSpace(text.charCodeAt(k))) return `text outside the root element at offset ${k}`;
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

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
  return new WellFormednessScan(text).run();
}

/** A step of the scan: the offset to go on from, or the problem found. */
type Step = number | string;

/** The state of one {@link wellFormednessError} pass: open elements, whether the root was seen and closed. */
class WellFormednessScan {
  private readonly n: number;
  private readonly stack: string[] = [];
  private readonly amps: AmpChecker;
  private rootSeen = false;
  private rootClosed = false;

  constructor(private readonly text: string) {
    this.n = text.length;
    this.amps = new AmpChecker(text);
  }

  run(): string | undefined {
    const { text } = this;
    let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    for (;;) {
      const lt = text.indexOf('<', i);
      const problem = this.textBetween(i, lt < 0 ? this.n : lt);
      if (problem !== undefined) return problem;
      if (lt < 0) break;
      const c = text.charCodeAt(lt + 1);
      const step =
        c === 0x3f /* ? */ || c === 0x21 /* ! */
          ? this.markup(lt)
          : c === 0x2f /* / */
            ? this.endTag(lt)
            : this.startTag(lt);
      if (typeof step === 'string') return step;
      i = step;
    }
    if (this.stack.length > 0) return `unclosed element <${this.stack[this.stack.length - 1]}>`;
    return this.rootSeen ? undefined : 'no root element';
  }

  /** Character data in [from, end): only whitespace outside the root, no stray `&` inside it. */
  private textBetween(from: number, end: number): string | undefined {
    if (end <= from) return undefined;
    if (this.stack.length > 0)
      return this.amps.bad(from, end) ? `'&' that starts no entity reference near offset ${from}` : undefined;
    for (let k = from; k < end; k++)
      if (!isSpace(this.text.charCodeAt(k))) return `text outside the root element at offset ${k}`;
    return undefined;
  }

  /** A processing instruction, a comment or (inside the root) a CDATA section at `lt`. */
  private markup(lt: number): Step {
    const { text } = this;
    if (text.charCodeAt(lt + 1) === 0x3f /* ? */) {
      const e = text.indexOf('?>', lt + 2);
      return e < 0 ? `unclosed processing instruction at offset ${lt}` : e + 2;
    }
    if (text.startsWith('<!--', lt)) {
      const e = text.indexOf('-->', lt + 4);
      return e < 0 ? `unclosed comment at offset ${lt}` : e + 3;
    }
    if (text.startsWith('<![CDATA[', lt) && this.stack.length > 0) {
      const e = text.indexOf(']]>', lt + 9);
      return e < 0 ? `unclosed CDATA section at offset ${lt}` : e + 3;
    }
    return `unexpected markup at offset ${lt}`;
  }

  /** An end tag at `lt`, which must close the innermost open element. */
  private endTag(lt: number): Step {
    const e = this.text.indexOf('>', lt + 2);
    if (e < 0) return `unclosed end tag at offset ${lt}`;
    const name = this.text.slice(lt + 2, e).trimEnd();
    const open = this.stack.pop();
    if (open === undefined) return `end tag </${name}> without a start tag`;
    if (open !== name) return `end tag </${name}> does not match <${open}>`;
    if (this.stack.length === 0) this.rootClosed = true;
    return e + 1;
  }

  /** A start tag at `lt`: its name, then its attributes up to `>` or `/>`. */
  private startTag(lt: number): Step {
    const { text, n } = this;
    if (this.rootClosed) return `more than one root element (offset ${lt})`;
    this.rootSeen = true;
    let k = lt + 1;
    while (k < n) {
      const ch = text.charCodeAt(k);
      if (isSpace(ch) || ch === 0x3e /* > */ || ch === 0x2f /* / */) break;
      k++;
    }
    const name = text.slice(lt + 1, k);
    if (!NAME.test(name)) return `invalid element name ${JSON.stringify(name)} at offset ${lt}`;
    return this.attributes(name, k);
  }

  /** The attributes of start tag `name` from offset `k`, then its end (`>` opens the element, `/>` does not). */
  private attributes(name: string, k: number): Step {
    const { text, n } = this;
    const seen: string[] = [];
    for (;;) {
      const before = k;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      if (k >= n) return `unclosed start tag <${name}>`;
      const ch = text.charCodeAt(k);
      if (ch === 0x3e /* > */) {
        this.stack.push(name);
        return k + 1;
      }
      if (ch === 0x2f /* / */) {
        if (text.charCodeAt(k + 1) !== 0x3e) return `'/' not followed by '>' in <${name}>`;
        if (this.stack.length === 0) this.rootClosed = true;
        return k + 2;
      }
      if (k === before) return `missing whitespace before an attribute of <${name}>`;
      const step = this.attribute(name, k, seen);
      if (typeof step === 'string') return step;
      k = step;
    }
  }

  /** One `name="value"` at `k` of start tag `tag`: a valid, unrepeated name and a quoted value without `<` or a stray `&`. */
  private attribute(tag: string, k: number, seen: string[]): Step {
    const { text, n } = this;
    const eq = text.indexOf('=', k);
    if (eq < 0) return `attribute without value in <${tag}>`;
    const attrName = text.slice(k, eq).trimEnd();
    if (!NAME.test(attrName)) return `invalid attribute ${JSON.stringify(attrName)} in <${tag}>`;
    if (seen.includes(attrName)) return `repeated attribute ${attrName} in <${tag}>`;
    seen.push(attrName);
    k = eq + 1;
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    const q = text.charCodeAt(k);
    if (q !== 0x22 && q !== 0x27) return `unquoted value of attribute ${attrName} in <${tag}>`;
    const close = text.indexOf(q === 0x22 ? '"' : "'", k + 1);
    if (close < 0) return `unterminated value of attribute ${attrName} in <${tag}>`;
    const lt = text.indexOf('<', k + 1);
    if (lt >= 0 && lt < close) return `'<' in the value of attribute ${attrName} in <${tag}>`;
    if (this.amps.bad(k + 1, close)) return `'&' that starts no entity reference in attribute ${attrName} of <${tag}>`;
    return close + 1;
  }
}

/**
 * Derives NDC instances from the vendored XSDs themselves (not from our fixtures), to prove that
 * the codec reads every message the schema allows.
 *
 * `xsdInstance(root, 'minimal')` walks the message's schema (and every schema it includes) and
 * writes the smallest document it allows: only elements with `minOccurs >= 1` (as many as
 * required), only `use="required"` attributes, for each required `xs:choice` the branch that
 * yields the shortest document, `complexContent` extensions with their base content first,
 * substitution-group heads replaced by a member when abstract, and simple values that satisfy
 * the type's enumerations, patterns, lengths and bounds (a plausible value by element or
 * attribute name when it fits, e.g. `LHR` for an airport code).
 *
 * `'wide'` adds, near the root, the optional elements and attributes as well (their own content
 * again minimal), takes the other branch of a choice when it is as valid, binds the NDC namespace
 * to fresh prefixes on inner elements, and fills `xs:any` wildcards with elements of a foreign
 * namespace: the shapes another vendor's messages have and our model ignores.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';

const XSD_DIR = join(__dirname, '..', '..', 'schemas', 'ndc-17.2', 'xsd');
const NDC_NS = 'http://www.iata.org/IATA/EDIST/2017.2';
/** Namespace of the foreign content written into `xs:any` wildcards (`##other`). */
export const THIRD_PARTY_NS = 'urn:example:third-party-vendor:ndc-ext';

/** A schema node: local tag name (`element`, `sequence`, ...), attributes, children in order. */
interface XsNode {
  tag: string;
  attrs: Record<string, string>;
  children: XsNode[];
}

interface Schema {
  elements: Map<string, XsNode>;
  types: Map<string, XsNode>;
  groups: Map<string, XsNode>;
  attributeGroups: Map<string, XsNode>;
  /** head element name -> member element names */
  substitutes: Map<string, string[]>;
}

const xsdParser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  // Attribute values as written (a pattern may end in a newline, which means a space).
  trimValues: false,
});

function toNode(raw: Record<string, unknown>): XsNode | undefined {
  const tag = Object.keys(raw).find((k) => k !== ':@');
  if (tag === undefined || tag.startsWith('#') || tag.startsWith('?')) return undefined;
  const local = tag.slice(tag.indexOf(':') + 1);
  const kids = (raw[tag] as Record<string, unknown>[]).map(toNode).filter((n): n is XsNode => n !== undefined);
  return { tag: local, attrs: (raw[':@'] as Record<string, string>) ?? {}, children: kids };
}

const schemaCache = new Map<string, Schema>();

/** Loads `<root>.xsd` and everything it includes, indexed by global name. */
function loadSchema(root: string): Schema {
  const cached = schemaCache.get(root);
  if (cached) return cached;
  const s: Schema = {
    elements: new Map(),
    types: new Map(),
    groups: new Map(),
    attributeGroups: new Map(),
    substitutes: new Map(),
  };
  const seen = new Set<string>();
  const load = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const raw = xsdParser.parse(readFileSync(join(XSD_DIR, file), 'utf8')) as Record<string, unknown>[];
    const schema = raw.map(toNode).find((n) => n?.tag === 'schema');
    if (!schema) throw new Error(`${file}: no xs:schema`);
    for (const c of schema.children) {
      const name = c.attrs.name;
      if (c.tag === 'include') load(c.attrs.schemaLocation);
      else if (c.tag === 'element') {
        s.elements.set(name, c);
        const head = c.attrs.substitutionGroup;
        if (head) s.substitutes.set(local(head), [...(s.substitutes.get(local(head)) ?? []), name]);
      } else if (c.tag === 'complexType' || c.tag === 'simpleType') s.types.set(name, c);
      else if (c.tag === 'group') s.groups.set(name, c);
      else if (c.tag === 'attributeGroup') s.attributeGroups.set(name, c);
    }
  };
  load(`${root}.xsd`);
  schemaCache.set(root, s);
  return s;
}

function local(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

function isBuiltin(qname: string): boolean {
  return qname.startsWith('xsd:') || qname.startsWith('xs:');
}

// ------------------------------------------------------------------ simple values

/** Plausible values by element or attribute name, used when they satisfy the type. */
const HINTS: Record<string, string> = {
  Version: '17.2',
  Target: 'Test',
  TimeStamp: '2026-11-21T06:00:00Z',
  AirportCode: 'LHR',
  LocationCode: 'LHR',
  CityCode: 'LON',
  CountryCode: 'GB',
  Code: 'GBP',
  CurrencyCode: 'GBP',
  OverrideCurrency: 'GBP',
  LanguageCode: 'EN',
  AirlineID: 'XS',
  Owner: 'XS',
  AgencyID: 'AGENCY1',
  AggregatorID: 'AGG1',
  Name: 'Partner Travel',
  Surname: 'Smith',
  GivenName: 'Alex',
  PTC: 'ADT',
  Date: '2026-12-01',
  Birthdate: '1985-04-12',
  Time: '10:00',
  EmailAddressValue: 'alex@example.com',
  PhoneNumber: '2071234567',
  CountryDialingCode: '44',
  OrderID: 'ORDER-1',
  OfferID: 'OFFER-1',
  OfferItemID: 'OFFER-1-ITEM-1',
  ResponseID: 'RESP-1',
  OrderReference: 'ORDER-1',
  ID: 'ABC123',
  Number: 'tok_test_1',
  StatusCode: 'OK',
  Type: 'CC',
  RBD: 'Y',
  FlightNumber: '101',
  Amount: '100.00',
  Total: '100.00',
  BaseAmount: '80.00',
  SimpleCurrencyPrice: '100.00',
  CurrencyAmountValue: '25.00',
  LeadDatePeriod: 'P3D',
};

interface Facets {
  enumerations: string[];
  patterns: string[];
  length?: number;
  minLength?: number;
  maxLength?: number;
  minInclusive?: number;
  maxInclusive?: number;
}

/** A string matching an XSD regular expression (first alternatives, minimal repetitions, at least one). */
export function sampleForPattern(pattern: string): string {
  let i = 0;
  const parseAlt = (): string => {
    const first = parseSeq();
    while (pattern[i] === '|') {
      i++;
      parseSeq();
    }
    return first;
  };
  const parseSeq = (): string => {
    let out = '';
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      const atom = parseAtom();
      const [min] = parseQuant();
      out += atom.repeat(min);
    }
    return out;
  };
  const parseQuant = (): [number] => {
    const c = pattern[i];
    if (c === '?' || c === '*') {
      i++;
      return [0];
    }
    if (c === '+') {
      i++;
      return [1];
    }
    if (c === '{') {
      const end = pattern.indexOf('}', i);
      const [a] = pattern.slice(i + 1, end).split(',');
      i = end + 1;
      return [Number(a)];
    }
    return [1];
  };
  const escape = (e: string): string => {
    if (e === 'd') return '1';
    if (e === 'w' || e === 'i' || e === 'c') return 'a';
    if (e === 's') return ' ';
    if (e === 'p' || e === 'P') {
      const end = pattern.indexOf('}', i);
      i = end + 1;
      return 'A';
    }
    if (e === 'n') return '\n';
    if (e === 't') return '\t';
    return e;
  };
  const parseClass = (): string => {
    // at '[' already consumed
    let negated = false;
    if (pattern[i] === '^') {
      negated = true;
      i++;
    }
    let first: string | undefined;
    const excluded: string[] = [];
    while (pattern[i] !== ']') {
      let c = pattern[i++];
      if (c === '\\') c = escape(pattern[i++]);
      else if (c === '[') {
        // subtraction like [a-z-[aeiou]]: skip
        while (pattern[i] !== ']') i++;
        i++;
        continue;
      }
      let range = c;
      if (pattern[i] === '-' && pattern[i + 1] !== ']' && pattern[i + 1] !== '[') {
        i++;
        let hi = pattern[i++];
        if (hi === '\\') hi = escape(pattern[i++]);
        range = c;
        if (negated) for (let k = c.charCodeAt(0); k <= hi.charCodeAt(0); k++) excluded.push(String.fromCharCode(k));
      } else if (negated) excluded.push(c);
      if (first === undefined) first = range;
    }
    i++;
    if (negated) return ['a', 'A', '1', 'x'].find((x) => !excluded.includes(x)) ?? 'z';
    return first ?? 'a';
  };
  const parseAtom = (): string => {
    const c = pattern[i++];
    if (c === '(') {
      const s = parseAlt();
      i++; // ')'
      return s;
    }
    if (c === '[') return parseClass();
    if (c === '\\') return escape(pattern[i++]);
    if (c === '.') return 'a';
    return c;
  };
  let out = parseAlt();
  if (out === '') out = 'A';
  return out;
}

function matchesAll(v: string, f: Facets): boolean {
  if (f.enumerations.length && !f.enumerations.includes(v)) return false;
  for (const p of f.patterns) {
    let re: RegExp;
    try {
      re = new RegExp(
        `^(?:${p
          .replace(/\\i/g, '[A-Za-z_:]')
          .replace(/\\c/g, '[\\w.:-]')
          .replace(/\\p\{[^}]*\}/g, '[A-Za-z]')})$`,
        'u',
      );
    } catch {
      return false;
    }
    if (!re.test(v)) return false;
  }
  if (f.length !== undefined && [...v].length !== f.length) return false;
  if (f.minLength !== undefined && [...v].length < f.minLength) return false;
  if (f.maxLength !== undefined && [...v].length > f.maxLength) return false;
  if (f.minInclusive !== undefined && Number(v) < f.minInclusive) return false;
  if (f.maxInclusive !== undefined && Number(v) > f.maxInclusive) return false;
  return true;
}

const BUILTIN_SAMPLES: Record<string, string> = {
  string: 'Text',
  normalizedString: 'Text',
  token: 'Text',
  NMTOKEN: 'TOKEN',
  NMTOKENS: 'TOKEN',
  Name: 'Name1',
  NCName: 'Name1',
  IDREF: 'REF1',
  IDREFS: 'REF1',
  decimal: '100.00',
  integer: '1',
  int: '1',
  long: '1',
  short: '1',
  byte: '1',
  nonNegativeInteger: '1',
  positiveInteger: '1',
  unsignedInt: '1',
  unsignedShort: '1',
  unsignedByte: '1',
  unsignedLong: '1',
  nonPositiveInteger: '0',
  negativeInteger: '-1',
  float: '1.5',
  double: '1.5',
  boolean: 'true',
  date: '2026-12-01',
  dateTime: '2026-11-21T06:00:00Z',
  time: '10:00:00',
  duration: 'P1D',
  gYear: '2026',
  gYearMonth: '2026-12',
  gMonthDay: '--12-01',
  gDay: '---01',
  gMonth: '--12',
  anyURI: 'https://example.com/ndc',
  language: 'en',
  base64Binary: 'AA==',
  hexBinary: '00',
  anySimpleType: 'Text',
  anyType: 'Text',
  QName: 'Text',
};

// ------------------------------------------------------------------ generator

export type InstanceMode = 'minimal' | 'wide';

/**
 * The decisions of a schema walk (`xsdWalk`): which branch of each `xs:choice`, whether each
 * optional element or attribute is written, how many of a repeatable one, how many ids an
 * `IDREFS` value names, and where the NDC namespace is bound again under a fresh prefix. Below
 * {@link WALK_MAX_DEPTH} the walk writes required content only (documents stay small).
 */
export interface WalkDecisions {
  /** Index (0 .. n-1) of the branch of a choice of `n` branches. */
  branch(n: number): number;
  /** Whether an optional element particle at element depth `depth` is written. */
  optional(depth: number): boolean;
  /** How many occurrences, between `min` (at least 1) and `max`. */
  repeat(min: number, max: number): number;
  /** How many ids (1 or more) an IDREFS value names. */
  idrefs(): number;
  /** Whether an optional attribute is written. */
  attribute(name: string): boolean;
  /** Whether the element at `depth` binds the NDC namespace to a fresh prefix. */
  rebind(depth: number): boolean;
}

/** Element depth below which a walk writes optional content. */
export const WALK_MAX_DEPTH = 5;

/**
 * The systematic walks: instance `k` of `n` takes branch `k mod b` of every choice of `b`
 * branches (so `n` at least the widest choice covers every branch of every choice it reaches),
 * writes every optional element and attribute when `k` is even and none when odd, repeats
 * repeatable elements once or twice and names one or two ids in IDREFS (alternating with `k`),
 * and binds fresh prefixes on inner elements in every other instance.
 */
export function branchWalk(k: number): WalkDecisions {
  const two = Math.floor(k / 2) % 2 === 1;
  return {
    branch: (n) => k % n,
    optional: () => k % 2 === 0,
    repeat: (min, max) => Math.min(max, Math.max(min, two ? 2 : 1)),
    idrefs: () => (two ? 2 : 1),
    attribute: () => k % 2 === 0,
    rebind: (depth) => k % 4 < 2 && depth > 0 && depth % 2 === 1,
  };
}

/** Walk decisions drawn from `next()` (e.g. a seeded random source): each call gives a non-negative integer. */
export function randomWalk(next: () => number): WalkDecisions {
  return {
    branch: (n) => next() % n,
    optional: (depth) => next() % (depth < 3 ? 2 : 3) === 0,
    repeat: (min, max) => Math.min(max, min + (next() % 3)),
    idrefs: () => 1 + (next() % 3),
    attribute: () => next() % 2 === 0,
    rebind: (depth) => depth > 0 && next() % 4 === 0,
  };
}

/** A particle no instance can satisfy (see the `any` case). */
class Unsatisfiable extends Error {}

/** How many levels of optional elements the wide variant adds below each required element. */
const WIDE_OPTIONAL_DEPTH = 1;
/** Depth (root = 0) below which the wide variant adds no optional elements (keeps documents small). */
const WIDE_MAX_DEPTH = 4;
/** How many element levels below an optional element the wide variant looks for an AugmentationPoint to reach. */
const AUG_REACH = 5;

class Generator {
  private ids = 0;
  private prefixes = 0;
  private readonly active = new Set<string>();

  private readonly walk?: WalkDecisions;
  private readonly mode: InstanceMode;

  constructor(
    private readonly s: Schema,
    mode: InstanceMode | WalkDecisions,
    private readonly prefer: readonly string[],
  ) {
    if (typeof mode === 'string') this.mode = mode;
    else {
      this.mode = 'minimal';
      this.walk = mode;
    }
  }

  /** Facets and builtin base of a simple type (named or inline), following restrictions and unions. */
  private facets(type: XsNode | string, f: Facets = { enumerations: [], patterns: [] }): { base: string; f: Facets } {
    if (typeof type === 'string') {
      if (isBuiltin(type)) return { base: local(type), f };
      const t = this.s.types.get(type);
      if (!t) throw new Error(`unknown type ${type}`);
      return this.facets(t, f);
    }
    const body = type.tag === 'simpleType' ? type.children.find((c) => c.tag !== 'annotation') : type;
    if (!body) return { base: 'string', f };
    if (body.tag === 'union') {
      const members = (body.attrs.memberTypes ?? '').split(/\s+/).filter(Boolean);
      const inline = body.children.filter((c) => c.tag === 'simpleType');
      return this.facets(members[0] ?? inline[0], f);
    }
    if (body.tag === 'list')
      return this.facets(body.attrs.itemType ?? body.children.find((c) => c.tag === 'simpleType')!, f);
    if (body.tag === 'restriction') {
      const own: Facets = { ...f, enumerations: [...f.enumerations], patterns: [...f.patterns] };
      const enums: string[] = [];
      for (const c of body.children) {
        const v = c.attrs.value;
        if (c.tag === 'enumeration') enums.push(v);
        // An XML parser normalises white space in attribute values (a newline in `value` is a space).
        else if (c.tag === 'pattern') own.patterns.push(v.replace(/[\n\r\t]/g, ' '));
        else if (c.tag === 'length') own.length ??= Number(v);
        else if (c.tag === 'minLength') own.minLength ??= Number(v);
        else if (c.tag === 'maxLength') own.maxLength ??= Number(v);
        else if (c.tag === 'minInclusive') own.minInclusive ??= Number(v);
        else if (c.tag === 'maxInclusive') own.maxInclusive ??= Number(v);
      }
      // The most derived enumeration wins.
      if (own.enumerations.length === 0) own.enumerations = enums;
      const base = body.attrs.base ?? body.children.find((c) => c.tag === 'simpleType');
      if (base === undefined) return { base: 'string', f: own };
      return this.facets(base, own);
    }
    return { base: 'string', f };
  }

  /** A value of simple type `type` for an element or attribute called `name`. */
  simpleValue(type: XsNode | string | undefined, name: string): string {
    if (type === undefined) return HINTS[name] ?? 'Text';
    if (typeof type === 'string' && local(type) === 'ID') return this.newId();
    const { base, f } = this.facets(type);
    if (base === 'ID') return this.newId();
    if (base === 'IDREFS' && this.walk !== undefined && f.enumerations.length === 0 && f.patterns.length === 0) {
      return Array.from({ length: this.walk.idrefs() }, (_, i) => `REF${i + 1}`).join(' ');
    }
    if (f.enumerations.length) return f.enumerations[0];
    const hint = HINTS[name];
    const candidates = [hint !== undefined && fitsBuiltin(hint, base) ? hint : undefined, BUILTIN_SAMPLES[base]];
    if (f.patterns.length) candidates.push(sampleForPattern(f.patterns[f.patterns.length - 1]));
    for (const c of candidates) if (c !== undefined && matchesAll(c, f)) return c;
    let v = f.patterns.length ? sampleForPattern(f.patterns[f.patterns.length - 1]) : (BUILTIN_SAMPLES[base] ?? 'Text');
    const min = f.length ?? f.minLength;
    if (min !== undefined) while ([...v].length < min) v += v.slice(-1) || 'A';
    const max = f.length ?? f.maxLength;
    if (max !== undefined && [...v].length > max) v = [...v].slice(0, max).join('');
    if (f.minInclusive !== undefined && Number(v) < f.minInclusive) v = String(f.minInclusive);
    return v;
  }

  private newId(): string {
    return `ID${++this.ids}`;
  }

  // ----------------------------------------------------------- elements

  /** The declaration behind an element particle (ref resolved, abstract heads substituted). */
  private decl(el: XsNode): XsNode {
    if (!el.attrs.ref) return el;
    const name = local(el.attrs.ref);
    let d = this.s.elements.get(name);
    if (!d) throw new Error(`unknown element ${name}`);
    if (d.attrs.abstract === 'true') {
      const member = this.s.substitutes.get(name)?.[0];
      if (!member) throw new Error(`abstract ${name} without substitutes`);
      d = this.s.elements.get(member)!;
    }
    return d;
  }

  /** Writes element `el` (a declaration or a ref) at `depth`; `prefix` is the NDC prefix in scope ('' = default). */
  element(el: XsNode, depth: number, prefix: string, optDepth: number): string {
    const d = this.decl(el);
    const name = d.attrs.name;
    let decl = '';
    if (this.walk !== undefined ? this.walk.rebind(depth) : this.mode === 'wide' && depth > 0 && depth % 2 === 0) {
      // Bind the NDC namespace to a fresh prefix here, for this subtree.
      prefix = `p${++this.prefixes}`;
      decl = ` xmlns:${prefix}="${NDC_NS}"`;
    }
    const qn = prefix ? `${prefix}:${name}` : name;
    const key = d.attrs.type ?? `inline:${name}`;
    if (this.active.has(key) && d.attrs.type && !isBuiltin(d.attrs.type)) {
      // Recursion through a required particle cannot happen in a valid schema; through an optional one we stop.
      return '';
    }
    const inlineComplex = d.children.find((c) => c.tag === 'complexType');
    const inlineSimple = d.children.find((c) => c.tag === 'simpleType');
    const typeName = d.attrs.type;
    if (inlineSimple || (typeName && (isBuiltin(typeName) || this.s.types.get(typeName)?.tag === 'simpleType'))) {
      const value = d.attrs.fixed ?? this.simpleValue(inlineSimple ?? typeName, name);
      return value === '' ? `<${qn}${decl}/>` : `<${qn}${decl}>${escapeXml(value)}</${qn}>`;
    }
    const ct = inlineComplex ?? (typeName ? this.s.types.get(typeName) : undefined);
    if (!ct) return `<${qn}${decl}/>`; // anyType: empty is fine
    this.active.add(key);
    try {
      const { attrs, content } = this.complex(ct, name, depth, prefix, optDepth);
      return content === '' ? `<${qn}${decl}${attrs}/>` : `<${qn}${decl}${attrs}>${content}</${qn}>`;
    } finally {
      this.active.delete(key);
    }
  }

  /** Attributes and content of a complex type. */
  private complex(
    ct: XsNode,
    name: string,
    depth: number,
    prefix: string,
    optDepth: number,
  ): { attrs: string; content: string } {
    let attrs = '';
    let content = '';
    for (const c of ct.children) {
      if (c.tag === 'simpleContent') {
        const ext = c.children.find((x) => x.tag === 'extension' || x.tag === 'restriction')!;
        content += escapeXml(this.simpleValue(this.simpleBaseOf(ext), name));
        attrs += this.attributesOf(ext, depth, true);
      } else if (c.tag === 'complexContent') {
        const ext = c.children.find((x) => x.tag === 'extension' || x.tag === 'restriction')!;
        if (ext.tag === 'extension') {
          const base = this.s.types.get(local(ext.attrs.base));
          if (base && !isBuiltin(ext.attrs.base)) {
            const b = this.complex(base, name, depth, prefix, optDepth);
            attrs += b.attrs;
            content += b.content;
          }
        }
        const own = this.complex(ext, name, depth, prefix, optDepth);
        attrs += own.attrs;
        content += own.content;
      } else if (['sequence', 'choice', 'all', 'group'].includes(c.tag)) {
        content += this.particle(c, depth, prefix, optDepth);
      }
    }
    attrs += this.attributesOf(ct, depth, false);
    return { attrs, content };
  }

  /** The simple type of a simpleContent extension/restriction (following complex bases). */
  private simpleBaseOf(ext: XsNode): XsNode | string {
    const inline = ext.children.find((c) => c.tag === 'simpleType');
    if (
      ext.tag === 'restriction' &&
      ext.children.some((c) => ['enumeration', 'pattern', 'maxLength', 'minLength', 'length'].includes(c.tag))
    ) {
      return { tag: 'simpleType', attrs: {}, children: [ext] };
    }
    if (inline) return inline;
    const base = ext.attrs.base;
    if (isBuiltin(base)) return base;
    const t = this.s.types.get(local(base));
    if (!t) throw new Error(`unknown type ${base}`);
    if (t.tag === 'simpleType') return local(base);
    const sc = t.children.find((c) => c.tag === 'simpleContent');
    const inner = sc?.children.find((x) => x.tag === 'extension' || x.tag === 'restriction');
    if (!inner) return 'xsd:string';
    return this.simpleBaseOf(inner);
  }

  /** Attribute declarations of a type body (required ones; the wide variant adds optional ones near the root). */
  private attributesOf(node: XsNode, depth: number, _simple: boolean): string {
    let out = '';
    for (const c of node.children) {
      if (c.tag === 'attributeGroup') {
        const g = this.s.attributeGroups.get(local(c.attrs.ref));
        if (g) out += this.attributesOf(g, depth, _simple);
      } else if (c.tag === 'attribute') {
        const a = c.attrs.ref ? { ...c.attrs, name: local(c.attrs.ref) } : c.attrs;
        const required = a.use === 'required';
        const wideExtra =
          this.walk !== undefined
            ? a.use !== 'prohibited' && depth <= WALK_MAX_DEPTH && this.walk.attribute(a.name)
            : this.mode === 'wide' && depth <= WIDE_MAX_DEPTH && a.use !== 'prohibited' && wideAttributeOk(a.name);
        if (!required && !wideExtra) continue;
        const inline = c.children.find((x) => x.tag === 'simpleType');
        const v = a.fixed ?? this.simpleValue(inline ?? a.type, a.name);
        out += ` ${a.name}="${escapeXml(v)}"`;
      }
    }
    return out;
  }

  private occurs(p: XsNode, depth: number, optDepth: number): { n: number; optional: boolean } {
    const min = p.attrs.minOccurs === undefined ? 1 : Number(p.attrs.minOccurs);
    if (this.walk !== undefined) {
      const maxAttr = p.attrs.maxOccurs ?? '1';
      const max = maxAttr === 'unbounded' ? Infinity : Number(maxAttr);
      // Repetitions and optional content only near the root (and only of elements: an optional
      // sequence or choice is entered when it holds what the walk decides to write).
      const near = depth < WALK_MAX_DEPTH;
      if (min > 0) return { n: near && p.tag === 'element' ? this.walk.repeat(min, max) : min, optional: false };
      const present = near && (p.tag !== 'element' || this.walk.optional(depth));
      return { n: present ? (p.tag === 'element' ? this.walk.repeat(1, max) : 1) : 0, optional: true };
    }
    if (min > 0) return { n: min, optional: false };
    // The wide variant also follows optional elements down to an AugmentationPoint (partner extensions).
    const wide =
      this.mode === 'wide' &&
      ((optDepth < WIDE_OPTIONAL_DEPTH && depth < WIDE_MAX_DEPTH) ||
        (p.tag === 'element' && this.leadsToAug(p, AUG_REACH)));
    return { n: wide ? 1 : 0, optional: true };
  }

  private readonly augMemo = new Map<string, boolean>();

  /** True when element particle `el` is an AugmentationPoint or holds one within `budget` levels of elements. */
  private leadsToAug(el: XsNode, budget: number): boolean {
    const name = el.attrs.ref ? local(el.attrs.ref) : el.attrs.name;
    if (name === 'AugmentationPoint') return true;
    if (budget === 0) return false;
    const key = `${el.attrs.ref ?? ''}|${el.attrs.type ?? ''}|${name}|${budget}`;
    const memo = this.augMemo.get(key);
    if (memo !== undefined) return memo;
    this.augMemo.set(key, false); // cycles
    const d = this.decl(el);
    const body =
      d.children.find((c) => c.tag === 'complexType') ??
      (d.attrs.type && !isBuiltin(d.attrs.type) ? this.s.types.get(local(d.attrs.type)) : undefined);
    const found = body !== undefined && this.childElements(body).some((c) => this.leadsToAug(c, budget - 1));
    this.augMemo.set(key, found);
    return found;
  }

  /** The element particles directly inside a complex type (through groups, sequences, choices and extensions). */
  private childElements(node: XsNode): XsNode[] {
    const out: XsNode[] = [];
    for (const c of node.children) {
      if (c.tag === 'element') out.push(c);
      else if (c.tag === 'group' && c.attrs.ref) {
        const g = this.s.groups.get(local(c.attrs.ref));
        if (g) out.push(...this.childElements(g));
      } else if (c.tag === 'extension' && c.attrs.base && !isBuiltin(c.attrs.base)) {
        const base = this.s.types.get(local(c.attrs.base));
        if (base) out.push(...this.childElements(base));
        out.push(...this.childElements(c));
      } else if (['sequence', 'choice', 'all', 'complexContent', 'restriction'].includes(c.tag))
        out.push(...this.childElements(c));
    }
    return out;
  }

  /** A particle (sequence, choice, all, group ref, element, any) inside an element at `depth`. */
  private particle(p: XsNode, depth: number, prefix: string, optDepth: number): string {
    const { n, optional } =
      p.tag === 'sequence' ||
      p.tag === 'choice' ||
      p.tag === 'all' ||
      p.tag === 'group' ||
      p.tag === 'element' ||
      p.tag === 'any'
        ? this.occurs(p, depth, optDepth)
        : { n: 0, optional: false };
    if (n === 0) return '';
    const od = optional ? optDepth + 1 : optDepth;
    let one: () => string;
    switch (p.tag) {
      case 'element':
        one = () => this.element(p, depth + 1, prefix, od);
        break;
      case 'any':
        // `##other`/`##any` wildcards (IATA's AugPoint) take foreign content; others are left empty.
        // `namespace=""` (PolicyAugmentation) admits nothing libxml2 accepts: the optional parent is left out.
        if (p.attrs.namespace === '') throw new Unsatisfiable();
        if (!['##other', '##any', undefined].includes(p.attrs.namespace)) return '';
        one = () =>
          `<tp:Extension xmlns:tp="${THIRD_PARTY_NS}" tp:source="partner"><tp:Note>ignored by the reader</tp:Note></tp:Extension>`;
        break;
      case 'group': {
        const g = this.s.groups.get(local(p.attrs.ref));
        if (!g) throw new Error(`unknown group ${p.attrs.ref}`);
        one = () => g.children.map((c) => this.particle(c, depth, prefix, od)).join('');
        break;
      }
      case 'sequence':
      case 'all':
        one = () => p.children.map((c) => this.particle(c, depth, prefix, od)).join('');
        break;
      case 'choice':
        one = () => this.choice(p, depth, prefix, od);
        break;
      default:
        return '';
    }
    let out = '';
    try {
      for (let k = 0; k < n; k++) out += one();
    } catch (e) {
      if (optional && e instanceof Unsatisfiable) return '';
      throw e;
    }
    return out;
  }

  /** True when particle `p` is, or directly holds, an element named in {@link prefer}. */
  private preferred(p: XsNode): boolean {
    if (p.tag === 'element') return this.prefer.includes(p.attrs.name ?? local(p.attrs.ref ?? ''));
    if (p.tag === 'sequence') return p.children.some((c) => this.preferred(c));
    return false;
  }

  /** The branch the walk decides (the next one that can be written, when it cannot). */
  private walkChoice(all: XsNode[], depth: number, prefix: string, optDepth: number): string {
    const start = this.walk!.branch(all.length);
    for (let i = 0; i < all.length; i++) {
      const b = all[(start + i) % all.length];
      const forced = b.attrs.minOccurs === '0' ? { ...b, attrs: { ...b.attrs, minOccurs: '1' } } : b;
      try {
        const out = this.particle(forced, depth, prefix, optDepth);
        if (out !== '' || all.length === 1) return out;
      } catch (e) {
        if (!(e instanceof Unsatisfiable)) throw e;
      }
    }
    throw new Unsatisfiable();
  }

  /** The branch of a choice named by `prefer`, else the one with the shortest output. */
  private choice(p: XsNode, depth: number, prefix: string, optDepth: number): string {
    const all = p.children.filter((c) => ['element', 'sequence', 'choice', 'group', 'any'].includes(c.tag));
    if (this.walk !== undefined) return this.walkChoice(all, depth, prefix, optDepth);
    const chosen = all.filter((c) => this.preferred(c));
    const branches = chosen.length ? chosen : all;
    const saved = { ids: this.ids, prefixes: this.prefixes };
    let best: { out: string; ids: number; prefixes: number } | undefined;
    for (const b of branches) {
      this.ids = saved.ids;
      this.prefixes = saved.prefixes;
      // A branch must produce at least one element to count as taken (minOccurs=0 branches may be empty).
      const forced = b.attrs.minOccurs === '0' ? { ...b, attrs: { ...b.attrs, minOccurs: '1' } } : b;
      let out: string;
      try {
        out = this.particle(forced, depth, prefix, optDepth);
      } catch (e) {
        if (e instanceof Unsatisfiable) continue;
        throw e;
      }
      if (out === '' && branches.length > 1) continue;
      if (best === undefined || out.length < best.out.length) best = { out, ids: this.ids, prefixes: this.prefixes };
    }
    this.ids = best?.ids ?? saved.ids;
    this.prefixes = best?.prefixes ?? saved.prefixes;
    return best?.out ?? '';
  }
}

/** Optional attributes the wide variant writes (IATA bookkeeping attributes other vendors send). */
function wideAttributeOk(name: string): boolean {
  return [
    'EchoToken',
    'SequenceNmbr',
    'TransactionStatusCode',
    'RetransmissionIndicator',
    'AsynchronousAllowedInd',
    'PrimaryLangID',
    'AltLangID',
  ].includes(name);
}

/** Lexical forms of the builtin types a hint must have to be used for them (string types take any). */
const BUILTIN_FORMS: Record<string, RegExp> = {
  decimal: /^-?\d+(\.\d+)?$/,
  integer: /^-?\d+$/,
  int: /^-?\d+$/,
  long: /^-?\d+$/,
  short: /^-?\d+$/,
  byte: /^-?\d+$/,
  nonNegativeInteger: /^\d+$/,
  positiveInteger: /^0*[1-9]\d*$/,
  unsignedInt: /^\d+$/,
  unsignedShort: /^\d+$/,
  unsignedByte: /^\d+$/,
  unsignedLong: /^\d+$/,
  float: /^-?\d+(\.\d+)?$/,
  double: /^-?\d+(\.\d+)?$/,
  boolean: /^(true|false|0|1)$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  dateTime: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/,
  time: /^\d{2}:\d{2}:\d{2}/,
  duration: /^-?P/,
  gYear: /^\d{4}$/,
  anyURI: /^\S+$/,
  language: /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/,
  ID: /^[A-Za-z_][\w.-]*$/,
  IDREF: /^[A-Za-z_][\w.-]*$/,
};

function fitsBuiltin(v: string, base: string): boolean {
  const form = BUILTIN_FORMS[base];
  return form === undefined || form.test(v);
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The instance of message `root` (e.g. `OrderCancelRQ`) described at the top of this file. The
 * root binds the NDC namespace as default namespace (minimal) or to the prefix `ndc` (wide).
 * `prefer` names elements whose `xs:choice` branch is taken instead of the shortest one (e.g.
 * `Success` for the success form of a response, `TravelAgencySender`).
 */
export function xsdInstance(root: string, mode: InstanceMode, prefer: readonly string[] = []): string {
  const s = loadSchema(root);
  const el = s.elements.get(root);
  if (!el) throw new Error(`${root}.xsd has no element ${root}`);
  const g = new Generator(s, mode, prefer);
  const prefix = mode === 'wide' ? 'ndc' : '';
  const body = g.element(el, 0, prefix, 0);
  const ns = mode === 'wide' ? ` xmlns:ndc="${NDC_NS}" xmlns:other="${THIRD_PARTY_NS}"` : ` xmlns="${NDC_NS}"`;
  // Declare the namespace on the root start tag.
  const open = (prefix ? `<${prefix}:` : '<') + root;
  return '<?xml version="1.0" encoding="UTF-8"?>' + body.replace(open, open + ns);
}

/**
 * An instance of message `root` whose every decision is `decisions`' (see {@link WalkDecisions}):
 * the NDC namespace is the root's default namespace, and bound again under fresh prefixes on
 * inner elements where the walk says so.
 */
export function xsdWalk(root: string, decisions: WalkDecisions): string {
  const s = loadSchema(root);
  const el = s.elements.get(root);
  if (!el) throw new Error(`${root}.xsd has no element ${root}`);
  const body = new Generator(s, decisions, []).element(el, 0, '', 0);
  return '<?xml version="1.0" encoding="UTF-8"?>' + body.replace(`<${root}`, `<${root} xmlns="${NDC_NS}"`);
}

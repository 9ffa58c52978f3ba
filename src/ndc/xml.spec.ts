import { decodeError } from '../../test/support/ndc';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeAirShoppingRq, encodeAirShoppingRq } from './air-shopping-rq.codec';
import { dayRoundTripRq } from './fixtures/air-shopping-rq.fixtures';
import { dayRoundTripRs } from './fixtures/air-shopping-rs.fixtures';
import { decodeAirShoppingRs, encodeAirShoppingRs } from './air-shopping-rs.codec';
import { tokenPriceRq } from './fixtures/offer-price-rq.fixtures';
import { familyOrderCreateRq } from './fixtures/order-create-rq.fixtures';
import { NdcDecodeError } from './ndc-decode-error';
import { decodeOfferPriceRq, encodeOfferPriceRq } from './offer-price-rq.codec';
import { decodeOrderCreateRq, encodeOrderCreateRq } from './order-create-rq.codec';
import {
  DEFAULT_MAX_BYTES,
  EXT_NS,
  NDC_NS,
  XSI_NS,
  addDetached,
  addEl,
  domAttrNS,
  domEl,
  domExt,
  domMoney,
  endMessage,
  startMessage,
  type DomElement,
  type XMLBuilder,
  decodeMoney,
  decodeRefs,
  many,
  ndcRootName,
  one,
  oneExt,
  optExt,
  parseNdc,
  text,
  unescapeXml,
  wellFormednessError,
  type XNode,
} from './xml';

const RETRIEVE = `<?xml version="1.0" encoding="UTF-8"?>
<OrderRetrieveRQ xmlns="${NDC_NS}" Version="17.2" TimeStamp="2026-11-21T06:00:00Z">
  <Document/>
  <Party><Sender><TravelAgencySender><Name>A</Name><AgencyID>B</AgencyID></TravelAgencySender></Sender></Party>
  <Query><Filters><OrderID Owner="XS">ORD1</OrderID></Filters></Query>
</OrderRetrieveRQ>`;

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<OrderRetrieveRQ xmlns="${NDC_NS}" Version="17.2"><Document>&lol9;</Document></OrderRetrieveRQ>`;

describe('parseNdc: hostile input', () => {
  afterEach(() => jest.restoreAllMocks());

  it('refuses a billion-laughs document before any parsing', () => {
    const parse = jest.spyOn(XMLParser.prototype, 'parse');
    const err = decodeError(() => parseNdc(BILLION_LAUGHS, 'OrderRetrieveRQ'));
    expect(err.code).toBe('DOCTYPE_FORBIDDEN');
    expect(err.path).toBe('');
    expect(err.message).toBe('DOCTYPE and ENTITY declarations are not accepted');
    expect(parse).not.toHaveBeenCalled();
    // the spy does see a normal parse, so the assertion above is meaningful
    parseNdc(RETRIEVE, 'OrderRetrieveRQ');
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('refuses an ENTITY declaration even without DOCTYPE, and a lower-case doctype', () => {
    expect(decodeError(() => parseNdc('<!ENTITY x "y"><A/>', 'A')).code).toBe('DOCTYPE_FORBIDDEN');
    expect(decodeError(() => parseNdc('<!doctype a><A/>', 'A')).code).toBe('DOCTYPE_FORBIDDEN');
    expect(decodeError(() => ndcRootName(BILLION_LAUGHS)).code).toBe('DOCTYPE_FORBIDDEN');
  });

  it('finds a declaration behind earlier exclamation marks and comments, and lets those alone pass', () => {
    expect(decodeError(() => ndcRootName('<!-- hi! --><!DOCTYPE a><A/>')).code).toBe('DOCTYPE_FORBIDDEN');
    expect(decodeError(() => parseNdc('<A><B>wow!</B><!ENTITY x "y"></A>', 'A')).code).toBe('DOCTYPE_FORBIDDEN');
    expect(ndcRootName('<?xml version="1.0"?><!-- fine! --><A><B>!</B></A>')).toBe('A');
    expect(decodeError(() => ndcRootName('!<A/>')).code).toBe('MALFORMED_XML');
  });

  it('refuses a string larger than the limit without parsing it', () => {
    const parse = jest.spyOn(XMLParser.prototype, 'parse');
    const big = RETRIEVE.replace('<Document/>', `<Document><Name>${'x'.repeat(DEFAULT_MAX_BYTES)}</Name></Document>`);
    const err = decodeError(() => parseNdc(big, 'OrderRetrieveRQ'));
    expect(err.code).toBe('TOO_LARGE');
    expect(err.message).toBe(`document larger than ${DEFAULT_MAX_BYTES} bytes`);
    expect(parse).not.toHaveBeenCalled();
  });

  it('counts UTF-8 bytes, and applies maxBytes to Buffers', () => {
    const doc = `<A xmlns="${NDC_NS}">${'é'.repeat(60)}</A>`; // 60 chars of 2 bytes each
    expect(decodeError(() => parseNdc(doc, 'A', { maxBytes: 100 })).code).toBe('TOO_LARGE');
    expect(parseNdc(doc, 'A', { maxBytes: 200 }).root).toBe('A');
    expect(decodeError(() => parseNdc(Buffer.from(RETRIEVE), 'OrderRetrieveRQ', { maxBytes: 50 })).code).toBe(
      'TOO_LARGE',
    );
    expect(parseNdc(Buffer.from(RETRIEVE), 'OrderRetrieveRQ').root).toBe('OrderRetrieveRQ');
  });

  it.each([
    ['an unclosed root', `<A xmlns="${NDC_NS}"><B></B>`],
    ['mismatched tags', `<A xmlns="${NDC_NS}"><B></C></A>`],
    ['not XML at all', 'hello'],
    ['an empty document', ''],
    ['an unquoted attribute', `<A xmlns="${NDC_NS}" x=1/>`],
    ['a raw ampersand', `<A xmlns="${NDC_NS}">a & b</A>`],
    ['a duplicate attribute', `<A xmlns="${NDC_NS}" x="1" x="2"/>`],
    ['two root elements', `<A xmlns="${NDC_NS}"/><A xmlns="${NDC_NS}"/>`],
    ['a prototype-polluting element name', `<A xmlns="${NDC_NS}"><__proto__><x>1</x></__proto__></A>`],
  ])('refuses %s as MALFORMED_XML', (_what, xml) => {
    const err = decodeError(() => parseNdc(xml, 'A'));
    expect(err.code).toBe('MALFORMED_XML');
  });

  it.each([
    ['text after the root', `<A xmlns="${NDC_NS}"/>junk`],
    ['a stray end tag', `<A xmlns="${NDC_NS}"></A></B>`],
    ['an unclosed comment', `<A xmlns="${NDC_NS}"><!-- x </A>`],
    ['a < in an attribute value', `<A xmlns="${NDC_NS}" x="a<b"/>`],
    ['attributes without whitespace between them', `<A xmlns="${NDC_NS}" x="1"y="2"/>`],
    ['an invalid element name', `<A xmlns="${NDC_NS}"><1B/></A>`],
    ['an unclosed start tag', `<A xmlns="${NDC_NS}"><B x="1"`],
    ['an unterminated attribute value', `<A xmlns="${NDC_NS}" x="1/>`],
    ['CDATA outside the root', `<![CDATA[x]]><A xmlns="${NDC_NS}"/>`],
  ])('refuses %s as MALFORMED_XML', (_what, xml) => {
    const err = decodeError(() => parseNdc(xml, 'A'));
    expect(err.code).toBe('MALFORMED_XML');
  });

  it('agrees with fast-xml-parser XMLValidator on well-formed documents with comments, CDATA, PIs and odd spacing', () => {
    const xml = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- lead -->\n<A xmlns="${NDC_NS}" a = 'x>y' b="&#38;&amp;">
      <?pi data?><B><![CDATA[ <not a tag> & ]]></B><C  ></C ><D/><!-- c --><E x="1"
      y="2"/>text &lt; 1 > 0</A>
      <!-- trailing -->`;
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(wellFormednessError(xml)).toBeUndefined();
    expect(text(one(parseNdc(xml, 'A').node, 'B', '/A'))).toBe(' <not a tag> & ');
  });

  it('explains what is malformed', () => {
    expect(decodeError(() => parseNdc(`<A xmlns="${NDC_NS}"><B></C></A>`, 'A')).message).toBe(
      'malformed XML: end tag </C> does not match <B>',
    );
    expect(decodeError(() => parseNdc(`<A xmlns="${NDC_NS}"><B>`, 'A')).message).toBe(
      'malformed XML: unclosed element <B>',
    );
  });

  it('refuses a wrong root, naming it', () => {
    const err = decodeError(() => parseNdc(RETRIEVE, 'OrderCreateRQ'));
    expect(err.code).toBe('WRONG_ROOT');
    expect(err.path).toBe('/OrderRetrieveRQ');
    expect(err.message).toBe('expected root OrderCreateRQ, got OrderRetrieveRQ at /OrderRetrieveRQ');
  });

  it('refuses a root in another namespace or in none', () => {
    const other = decodeError(() =>
      parseNdc(RETRIEVE.replace(NDC_NS, 'http://www.iata.org/IATA/EDIST/2017.1'), 'OrderRetrieveRQ'),
    );
    expect(other.code).toBe('WRONG_NAMESPACE');
    expect(other.path).toBe('/OrderRetrieveRQ');
    const none = decodeError(() => parseNdc(RETRIEVE.replace(` xmlns="${NDC_NS}"`, ''), 'OrderRetrieveRQ'));
    expect(none.code).toBe('WRONG_NAMESPACE');
    // the NDC namespace bound to a prefix the root does not use
    const unbound = decodeError(() =>
      parseNdc(RETRIEVE.replace(` xmlns="${NDC_NS}"`, ` xmlns:n="${NDC_NS}"`), 'OrderRetrieveRQ'),
    );
    expect(unbound.code).toBe('WRONG_NAMESPACE');
  });

  it('accepts one of several expected roots', () => {
    expect(parseNdc(RETRIEVE, ['OrderCreateRQ', 'OrderRetrieveRQ']).root).toBe('OrderRetrieveRQ');
  });
});

describe('parseNdc: reading', () => {
  it('makes every element an array, whether it appears once or twice', () => {
    const once = parseNdc(`<A xmlns="${NDC_NS}"><B>1</B></A>`, 'A').node;
    const twice = parseNdc(`<A xmlns="${NDC_NS}"><B>1</B><B>2</B></A>`, 'A').node;
    expect(many(once, 'B').map(text)).toEqual(['1']);
    expect(many(twice, 'B').map(text)).toEqual(['1', '2']);
    expect((once as Record<string, unknown>).B).toEqual(['1']);
  });

  it('accepts any prefix for the NDC namespace and for the extension namespace', () => {
    const { root, node, path } = parseNdc(
      `<n:A xmlns:n="${NDC_NS}" xmlns:e="${EXT_NS}"><n:B><e:Token><e:Number>t1</e:Number></e:Token></n:B></n:A>`,
      'A',
    );
    expect(root).toBe('A');
    expect(path).toBe('/A');
    const b = one(node, 'B', path);
    expect(text(oneExt(oneExt(b, 'Token', '/A/B'), 'Number', '/A/B/ns2:Token'))).toBe('t1');
  });

  // Regression: fast-xml-parser 5.12.1 applies transformTagName twice to a self-closing tag (to the
  // raw name, then to its own result); resolving prefixes there turned `<n:B/>` into a foreign element.
  it('resolves prefixed self-closing elements once, as written', () => {
    const { node } = parseNdc(
      `<n:A xmlns:n="${NDC_NS}" xmlns:e="${EXT_NS}"><n:B x="1"/><n:C/><e:Flag/><e:Token n="2"/></n:A>`,
      'A',
    );
    expect(node).toEqual({
      '@xmlns:n': NDC_NS,
      '@xmlns:e': EXT_NS,
      B: [{ '@x': '1' }],
      C: [''],
      'ns2:Flag': [''],
      'ns2:Token': [{ '@n': '2' }],
    });
  });

  it('keeps an unprefixed element foreign when the default namespace is not NDC, self-closing or not', () => {
    const { node } = parseNdc(`<n:A xmlns:n="${NDC_NS}"><n:B>1</n:B><B/><n:C/><C>2</C><ns2:D/></n:A>`, 'A');
    expect(many(node, 'B').map(text)).toEqual(['1']);
    expect(many(node, 'C').map(text)).toEqual(['']);
    expect(optExt(node, 'D')).toBeUndefined();
  });

  it('keeps object-prototype names out of the tree when resolving prefixes', () => {
    const { node } = parseNdc(
      `<n:A xmlns:n="${NDC_NS}"><n:constructor/><n:toString>x</n:toString><n:B>1</n:B></n:A>`,
      'A',
    );
    expect(Object.keys(node)).toEqual(['{foreign}n:constructor', '{foreign}n:toString', 'B', '@xmlns:n']);
  });

  it('scopes prefix declarations per element: one prefix bound to NDC here and to a foreign namespace there', () => {
    const xml =
      `<a:A xmlns:a="${NDC_NS}"><a:B>1</a:B><x:C xmlns:a="urn:foreign" xmlns:x="${NDC_NS}"><a:B>foreign</a:B><x:B>2</x:B></x:C>` +
      `<D xmlns="urn:foreign"><B>foreign too</B></D><E xmlns="${NDC_NS}"><B>3</B></E><a:B>4</a:B></a:A>`;
    const { node } = parseNdc(xml, 'A');
    expect(many(node, 'B').map(text)).toEqual(['1', '4']);
    expect(many(one(node, 'C', '/A'), 'B').map(text)).toEqual(['2']);
    expect(many(node, 'D')).toEqual([]);
    expect(many(one(node, 'E', '/A'), 'B').map(text)).toEqual(['3']);
  });

  it('reads extension elements of the namespace the options name, and only those', () => {
    const xml = `<A xmlns="${NDC_NS}" xmlns:ns2="urn:partner:ext" xmlns:o="${EXT_NS}"><B><ns2:Token>t</ns2:Token><o:Other/></B></A>`;
    const { node } = parseNdc(xml, 'A', { extensionNamespace: 'urn:partner:ext' });
    const b = one(node, 'B', '/A');
    expect(text(oneExt(b, 'Token', '/A/B'))).toBe('t');
    expect(optExt(b, 'Other')).toBeUndefined();
    const byDefault = parseNdc(xml, 'A').node;
    expect(optExt(one(byDefault, 'B', '/A'), 'Token')).toBeUndefined();
    expect(optExt(one(byDefault, 'B', '/A'), 'Other')).toBeDefined();
  });

  it('encodes extension elements in the namespace the options name, and decodes them back with the same option', () => {
    const ns = 'urn:partner:ext';
    const xml = encodeOfferPriceRq(tokenPriceRq, { extensionNamespace: ns });
    expect(xml).toContain(`xmlns:ns2="${ns}"`);
    expect(xml).not.toContain(EXT_NS);
    expect(decodeOfferPriceRq(xml, { extensionNamespace: ns })).toStrictEqual(tokenPriceRq);
    const rs = encodeAirShoppingRs(dayRoundTripRs, { extensionNamespace: ns });
    expect(rs).not.toContain(EXT_NS);
    expect(decodeAirShoppingRs(rs, { extensionNamespace: ns })).toStrictEqual(dayRoundTripRs);
  });

  it('accepts namespace declarations below the root', () => {
    const { node } = parseNdc(`<A xmlns="${NDC_NS}"><B><x:Token xmlns:x="${EXT_NS}">t</x:Token></B></A>`, 'A');
    expect(text(oneExt(one(node, 'B', '/A'), 'Token', '/A/B'))).toBe('t');
  });

  it('reports an extension element in the wrong namespace as WRONG_NAMESPACE', () => {
    const { node } = parseNdc(`<A xmlns="${NDC_NS}" xmlns:ns2="urn:other"><B><ns2:Token>t</ns2:Token></B></A>`, 'A');
    const err = decodeError(() => oneExt(one(node, 'B', '/A'), 'Token', '/A/B'));
    expect(err.code).toBe('WRONG_NAMESPACE');
    expect(err.path).toBe('/A/B/ns2:Token');
    const unprefixed = parseNdc(`<A xmlns="${NDC_NS}"><B><Token>t</Token></B></A>`, 'A').node;
    expect(decodeError(() => oneExt(one(unprefixed, 'B', '/A'), 'Token', '/A/B')).code).toBe('WRONG_NAMESPACE');
  });

  it('hides elements of foreign namespaces from the decoders', () => {
    const { node } = parseNdc(`<A xmlns="${NDC_NS}" xmlns:f="urn:f"><f:B>x</f:B><B>y</B></A>`, 'A');
    expect(many(node, 'B').map(text)).toEqual(['y']);
  });

  it('names the missing element with its path', () => {
    const { node, path } = parseNdc(RETRIEVE, 'OrderRetrieveRQ');
    const err = decodeError(() => one(one(node, 'Query', path), 'Nope', `${path}/Query`));
    expect(err.code).toBe('MISSING');
    expect(err.path).toBe('/OrderRetrieveRQ/Query/Nope');
  });

  it('unescapes predefined entities and character references, and leaves unknown entities alone', () => {
    expect(unescapeXml('&#99999999; &#x110000;')).toBe('&#99999999; &#x110000;');
    expect(unescapeXml('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233; &#x20AC; &lol;')).toBe(
      `a & b <c> "d" 'e' é € &lol;`,
    );
    const { node } = parseNdc(`<A xmlns="${NDC_NS}" u="x?a=1&amp;b=2"><B>R&amp;D &#163;</B></A>`, 'A');
    expect(text(one(node, 'B', '/A'))).toBe('R&D £');
  });

  it('keeps amounts exactly as written and refuses non-decimals', () => {
    const { node } = parseNdc(
      `<A xmlns="${NDC_NS}"><M Code="GBP">0012.300</M><X Code="GBP">1e3</X><Y>1.00</Y></A>`,
      'A',
    );
    expect(decodeMoney(one(node, 'M', '/A'), '/A/M')).toEqual({ value: '0012.300', currency: 'GBP' });
    const bad = decodeError(() => decodeMoney(one(node, 'X', '/A'), '/A/X'));
    expect(bad.code).toBe('INVALID_VALUE');
    expect(bad.path).toBe('/A/X');
    // Code is optional in the 17.2 amount types: the message's currency, else none.
    expect(decodeMoney(one(node, 'Y', '/A'), '/A/Y')).toStrictEqual({ value: '1.00' });
    expect(decodeMoney(one(node, 'Y', '/A'), '/A/Y', 'NOK')).toStrictEqual({ value: '1.00', currency: 'NOK' });
    expect(decodeMoney(one(node, 'M', '/A'), '/A/M', 'NOK')).toStrictEqual({ value: '0012.300', currency: 'GBP' });
  });

  it('splits reference lists on any whitespace', () => {
    expect(decodeRefs(' PAX1  PAX2\nPAX3 ')).toEqual(['PAX1', 'PAX2', 'PAX3']);
    expect(decodeRefs('')).toEqual([]);
    expect(decodeRefs(undefined)).toEqual([]);
  });
});

describe('ndcRootName', () => {
  it('reads the root local name past the declaration, comments and processing instructions', () => {
    const xml = `\uFEFF<?xml version="1.0"?>\n<!-- a <comment> -->\n<?pi x?>\n<n:OrderCreateRQ xmlns:n="${NDC_NS}" a=">"><n:Document/></n:OrderCreateRQ>`;
    expect(ndcRootName(xml)).toBe('OrderCreateRQ');
    expect(ndcRootName(Buffer.from(RETRIEVE))).toBe('OrderRetrieveRQ');
  });

  it('refuses input without a root element', () => {
    expect(decodeError(() => ndcRootName('just text')).code).toBe('MALFORMED_XML');
  });

  it('applies the size limit', () => {
    expect(decodeError(() => ndcRootName(RETRIEVE, { maxBytes: 10 })).code).toBe('TOO_LARGE');
  });
});

describe('XNode readers', () => {
  it('treat a text-only element and an element with attributes alike', () => {
    const { node } = parseNdc(`<A xmlns="${NDC_NS}"><B>plain</B><B Code="X">attr</B><B/></A>`, 'A');
    const bs: XNode[] = many(node, 'B');
    expect(bs.map(text)).toEqual(['plain', 'attr', '']);
  });
});

describe('decoders on mutated input', () => {
  it('only ever throw NdcDecodeError (3000 seeded mutations of real requests)', () => {
    const cases: [string, (x: string) => unknown][] = [
      [encodeAirShoppingRq(dayRoundTripRq), decodeAirShoppingRq],
      [encodeOfferPriceRq(tokenPriceRq), decodeOfferPriceRq],
      [encodeOrderCreateRq(familyOrderCreateRq), decodeOrderCreateRq],
    ];
    const pieces = [
      '<',
      '>',
      '/',
      '"',
      "'",
      '&',
      '=',
      ' ',
      'a',
      '!',
      '?',
      '-',
      ';',
      '#',
      '&#1;',
      '<x>',
      '</x>',
      '&#99999999;',
      'xmlns="u"',
    ];
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const codes = new Set<string>();
    let decoded = 0;
    for (let t = 0; t < 3000; t++) {
      const [doc, decode] = cases[rnd(cases.length)];
      let d = doc;
      for (let m = 0, k = 1 + rnd(3); m < k; m++) {
        const p = rnd(d.length);
        const piece = pieces[rnd(pieces.length)];
        const kind = rnd(3);
        d =
          kind === 0
            ? d.slice(0, p) + d.slice(p + 1 + rnd(20))
            : kind === 1
              ? d.slice(0, p) + piece + d.slice(p)
              : d.slice(0, p) + piece + d.slice(p + 1);
      }
      try {
        decode(d);
        decoded++;
      } catch (e) {
        if (!(e instanceof NdcDecodeError)) throw new Error(`non-NdcDecodeError ${String(e)} for input:\n${d}`);
        codes.add(e.code);
      }
    }
    expect(decoded).toBeGreaterThan(0);
    expect([...codes].sort()).toEqual(expect.arrayContaining(['MALFORMED_XML', 'MISSING']));
  });
});

describe('addDetached', () => {
  const header = { target: 'Test', version: '17.2', timeStamp: '2026-11-21T06:00:00Z' };

  /** A subtree with everything the encoders write: attributes, escaped text, money, xsi:type, an ns2 element. */
  function offer(el: DomElement, i: number): void {
    const o = domEl(el, 'Offer');
    o.setAttribute('OfferID', `O${i}`);
    o.setAttribute('Note', `a&b<c>"d'`);
    domMoney(o, 'TotalPrice', { value: '12.30', currency: 'GBP' });
    domEl(o, 'Text', `x & y <ndcDetached0/> ]]> \u00e9`);
    domAttrNS(domEl(o, 'CabinTypeCode', 'M'), XSI_NS, 'xsi:type', 'xs:string');
    domExt(o, 'Transfer');
    domEl(o, 'Empty');
  }

  function build(detached: boolean): string {
    const root = startMessage('AirShoppingRS', header);
    addEl(root, 'Document');
    const group = addEl(root, 'AirlineOffers');
    const write = (parent: XMLBuilder, fn: (el: DomElement) => void): void => {
      if (detached) addDetached(parent, fn);
      else fn(parent.node as unknown as DomElement);
    };
    write(group, (el) => offer(el, 1));
    addEl(group, 'Between', 'plain');
    write(group, () => undefined); // an empty subtree
    write(group, (el) => {
      offer(el, 2);
      offer(el, 3);
    });
    addEl(root, 'After');
    return endMessage(root);
  }

  it('writes exactly the bytes of appending to the parent directly, in document order', () => {
    const xml = build(true);
    expect(xml).toBe(build(false));
    expect(xml).toContain(
      '<AirlineOffers><Offer OfferID="O1" Note="a&amp;b&lt;c&gt;&quot;d\'"><TotalPrice Code="GBP">12.30</TotalPrice>' +
        '<Text>x &amp; y &lt;ndcDetached0/&gt; ]]&gt; \u00e9</Text><CabinTypeCode xsi:type="xs:string">M</CabinTypeCode>' +
        '<ns2:Transfer/><Empty/></Offer><Between>plain</Between><Offer OfferID="O2"',
    );
    expect(xml).not.toContain('<ndcDetached');
    expect(xml.endsWith('</Offer></AirlineOffers><After/></AirShoppingRS>')).toBe(true);
  });
});

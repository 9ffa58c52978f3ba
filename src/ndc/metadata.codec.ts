/**
 * `Metadata` of the NDC 17.2 responses: the JOURNEYS flight metadata of
 * calendar shopping (AugPoints with `ns2:Journey/ns2:Transfer`) and the
 * `Other/OtherMetadata` groups for languages, countries, cities (AugPoint with
 * `ns2:City`) and payment forms (AugPoint with `ns2:Token/ns2:Number`, read and
 * written by the OfferPriceRQ codec's helpers).
 *
 * `CurrencyMetadatas` (key = ISO 4217 code, `Decimals`, `Name`, `Application`) give the currency of
 * amounts written without `Code` ({@link messageCurrency}).
 *
 * Each kind of OtherMetadata is written as its own `OtherMetadata` element
 * (the XSD makes each one a choice); reading concatenates all of them.
 */
import type {
  CityMetadata,
  CountryMetadata,
  CurrencyMetadata,
  JourneyMetadata,
  LanguageMetadata,
  Metadata,
} from './ndc.model';
import { decodePaymentFormMetadatas, encodePaymentFormMetadatas } from './offer-price-rq.codec';
import {
  addEl,
  addExt,
  addOptText,
  attr,
  decodeBoolean,
  extName,
  many,
  one,
  opt,
  optText,
  optValue,
  reqAttr,
  text,
  type XMLBuilder,
  type XNode,
  type MessageCurrency,
} from './xml';

/** MetadataKey of the FlightMetadata that carries the journey AugPoints. */
export const JOURNEYS_KEY = 'JOURNEYS';

export interface MetadataEncodeOptions {
  /**
   * Whether the message schema has `Metadata/Shopping` (AirShoppingRS and
   * OfferPriceRS do, OrderViewRS does not). Default `true`. When `false`,
   * `journeys` must be empty or the encoder throws.
   */
  shopping?: boolean;
}

/** Whether `md` has an entry of `Other/OtherMetadata` (everything but the journeys). */
function hasOtherMetadata(md: Metadata): boolean {
  return !!(
    md.languages?.length ||
    md.countries?.length ||
    md.cities?.length ||
    md.paymentForms?.length ||
    md.currencies?.length
  );
}

/** Appends `<Metadata>` to `parent` (nothing when `md` holds no entry). */
export function encodeMetadata(parent: XMLBuilder, md: Metadata, opts: MetadataEncodeOptions = {}): void {
  if (!md.journeys?.length && !hasOtherMetadata(md)) return;
  const el = addEl(parent, 'Metadata');
  if (md.journeys?.length) {
    if (opts.shopping === false)
      throw new Error('journeys metadata is not allowed in this message (no Metadata/Shopping)');
    encodeJourneys(el, md.journeys);
  }
  if (!hasOtherMetadata(md)) return;
  const other = addEl(el, 'Other');
  if (md.currencies?.length) encodeCurrencies(addEl(other, 'OtherMetadata'), md.currencies);
  if (md.languages?.length) encodeLanguages(addEl(other, 'OtherMetadata'), md.languages);
  if (md.countries?.length) encodeCountries(addEl(other, 'OtherMetadata'), md.countries);
  if (md.cities?.length) encodeCities(addEl(other, 'OtherMetadata'), md.cities);
  if (md.paymentForms?.length) encodePaymentFormMetadatas(addEl(other, 'OtherMetadata'), md.paymentForms);
}

/** `Shopping/ShopMetadataGroup/Flight/FlightMetadatas/FlightMetadata[@MetadataKey=JOURNEYS]` with one AugPoint per journey. */
function encodeJourneys(metadata: XMLBuilder, journeys: readonly JourneyMetadata[]): void {
  const fm = addEl(
    addEl(addEl(addEl(addEl(metadata, 'Shopping'), 'ShopMetadataGroup'), 'Flight'), 'FlightMetadatas'),
    'FlightMetadata',
  ).att('MetadataKey', JOURNEYS_KEY);
  const ap = addEl(fm, 'AugmentationPoint');
  for (const j of journeys) {
    addExt(addExt(addEl(ap, 'AugPoint').att('Key', j.key), 'Journey'), 'Transfer', j.transfer ? 'true' : 'false');
  }
}

function encodeCurrencies(om: XMLBuilder, currencies: readonly CurrencyMetadata[]): void {
  const list = addEl(om, 'CurrencyMetadatas');
  for (const c of currencies) {
    const x = addEl(list, 'CurrencyMetadata').att('MetadataKey', c.key);
    addOptText(x, 'Application', c.application);
    addOptText(x, 'Decimals', c.decimals === undefined ? undefined : String(c.decimals));
    addOptText(x, 'Name', c.name);
  }
}

function encodeLanguages(om: XMLBuilder, languages: readonly LanguageMetadata[]): void {
  const list = addEl(om, 'LanguageMetadatas');
  for (const l of languages) {
    const x = addEl(list, 'LanguageMetadata').att('MetadataKey', l.key);
    addOptText(x, 'Code_ISO', l.codeIso);
    addOptText(x, 'Code_NLS', l.codeNls);
    addOptText(x, 'Name', l.name);
  }
}

function encodeCountries(om: XMLBuilder, countries: readonly CountryMetadata[]): void {
  const list = addEl(om, 'CountryMetadatas');
  for (const c of countries) {
    const x = addEl(list, 'CountryMetadata').att('MetadataKey', c.key);
    addOptText(x, 'ICAO_Code', c.icaoCode);
    addOptText(x, 'Name', c.name);
  }
}

/** `CityMetadatas`: the key, and the code and name in an AugPoint's `ns2:City` (left out when neither is known). */
function encodeCities(om: XMLBuilder, cities: readonly CityMetadata[]): void {
  const list = addEl(om, 'CityMetadatas');
  for (const c of cities) {
    const x = addEl(list, 'CityMetadata').att('MetadataKey', c.key);
    if (c.code === undefined && c.name === undefined) continue;
    const city = addExt(addEl(addEl(x, 'AugmentationPoint'), 'AugPoint'), 'City');
    if (c.code !== undefined) addExt(city, 'Code', c.code);
    if (c.name !== undefined) addExt(city, 'Name', c.name);
  }
}

/** Reads a `<Metadata>` element (`node` undefined gives `{}`). Unknown metadata is ignored. */
export function decodeMetadata(node: XNode | undefined, path: string): Metadata {
  const md: Metadata = {};
  if (node === undefined) return md;
  const journeys = decodeJourneys(node, path);
  if (journeys.length) md.journeys = journeys;
  const other = opt(node, 'Other');
  const groups = other === undefined ? [] : many(other, 'OtherMetadata');
  // Each kind may come in several OtherMetadata elements: read in document order, concatenated.
  const read = <T>(decode: (om: XNode, omPath: string) => T[]): T[] =>
    groups.flatMap((om, i) => decode(om, `${path}/Other/OtherMetadata[${i + 1}]`));
  const languages = read(decodeLanguages);
  if (languages.length) md.languages = languages;
  const countries = read(decodeCountries);
  if (countries.length) md.countries = countries;
  const cities = read(decodeCities);
  if (cities.length) md.cities = cities;
  const paymentForms = read((om, omPath) =>
    many(om, 'PaymentFormMetadatas').flatMap((list) =>
      decodePaymentFormMetadatas(list, `${omPath}/PaymentFormMetadatas`),
    ),
  );
  if (paymentForms.length) md.paymentForms = paymentForms;
  const currencies = read(decodeCurrencies);
  if (currencies.length) md.currencies = currencies;
  return md;
}

/** The entries `<list>/<entry>` of every `list` of an OtherMetadata, each decoded at its path. */
function entriesOf<T>(om: XNode, omPath: string, list: string, entry: string, decode: (x: XNode, p: string) => T): T[] {
  return many(om, list).flatMap((l) => many(l, entry).map((x, j) => decode(x, `${omPath}/${list}/${entry}[${j + 1}]`)));
}

function decodeLanguages(om: XNode, omPath: string): LanguageMetadata[] {
  return entriesOf(om, omPath, 'LanguageMetadatas', 'LanguageMetadata', (l, p) => {
    const out: LanguageMetadata = { key: reqAttr(l, 'MetadataKey', p) };
    const iso = optValue(l, 'Code_ISO');
    if (iso !== undefined) out.codeIso = iso;
    const nls = optText(l, 'Code_NLS');
    if (nls !== undefined) out.codeNls = nls;
    const name = optValue(l, 'Name');
    if (name !== undefined) out.name = name;
    return out;
  });
}

function decodeCountries(om: XNode, omPath: string): CountryMetadata[] {
  return entriesOf(om, omPath, 'CountryMetadatas', 'CountryMetadata', (c, p) => {
    const out: CountryMetadata = { key: reqAttr(c, 'MetadataKey', p) };
    const icao = optValue(c, 'ICAO_Code');
    if (icao !== undefined) out.icaoCode = icao;
    const name = optValue(c, 'Name');
    if (name !== undefined) out.name = name;
    return out;
  });
}

function decodeCities(om: XNode, omPath: string): CityMetadata[] {
  return entriesOf(om, omPath, 'CityMetadatas', 'CityMetadata', (c, p) => {
    const out: CityMetadata = { key: reqAttr(c, 'MetadataKey', p) };
    const city = findAugPointExt(c, 'City');
    const code = city === undefined ? undefined : optValue(city, extName('Code'));
    if (code !== undefined) out.code = code;
    const name = city === undefined ? undefined : optValue(city, extName('Name'));
    if (name !== undefined) out.name = name;
    return out;
  });
}

function decodeCurrencies(om: XNode, omPath: string): CurrencyMetadata[] {
  return entriesOf(om, omPath, 'CurrencyMetadatas', 'CurrencyMetadata', (c, p) => {
    const out: CurrencyMetadata = { key: reqAttr(c, 'MetadataKey', p) };
    const application = optText(c, 'Application');
    if (application !== undefined && application !== '') out.application = application;
    // xsd:integer; a value we cannot use as a count of places is information we do without.
    const decimals = optText(c, 'Decimals');
    if (decimals !== undefined && /^\+?\d{1,3}$/.test(decimals)) out.decimals = Number(decimals);
    const name = optText(c, 'Name');
    if (name !== undefined && name !== '') out.name = name;
    return out;
  });
}

/**
 * The currency of the message's amounts written without `Code`: the one ISO 4217 code (three
 * capital letters) that the currency metadata names as `MetadataKey`. When the metadata names
 * none but gives decimal places, `{ decimals }` (the amounts then have no currency and carry
 * `decimals`). Undefined when the metadata names several codes, or nothing at all (then no
 * amount gets a currency it did not state).
 */
export function messageCurrency(md: Metadata | undefined): MessageCurrency {
  const currencies = md?.currencies ?? [];
  const codes = new Set(currencies.map((c) => c.key).filter((k) => /^[A-Z]{3}$/.test(k)));
  if (codes.size === 1) return [...codes][0];
  if (codes.size > 1) return undefined;
  // Metadata without a currency code that gives decimal places (all the same): amounts without
  // Code keep no currency but carry those places, so that using them as money is a typed error.
  const places = new Set(currencies.flatMap((c) => (c.decimals !== undefined ? [c.decimals] : [])));
  return places.size === 1 ? { decimals: [...places][0] } : undefined;
}

/** The first `ns2:<local>` element inside any AugPoint of `node`'s AugmentationPoint (both optional: undefined without). */
function findAugPointExt(node: XNode, local: string): XNode | undefined {
  const ap = opt(node, 'AugmentationPoint');
  for (const pt of ap === undefined ? [] : many(ap, 'AugPoint')) {
    const x = opt(pt, extName(local));
    if (x !== undefined) return x;
  }
  return undefined;
}

function decodeJourneys(node: XNode, path: string): JourneyMetadata[] {
  const out: JourneyMetadata[] = [];
  const shopping = opt(node, 'Shopping');
  const group = shopping === undefined ? undefined : opt(shopping, 'ShopMetadataGroup');
  const flight = group === undefined ? undefined : opt(group, 'Flight');
  if (flight === undefined) return out;
  const base = `${path}/Shopping/ShopMetadataGroup/Flight`;
  for (const fms of many(flight, 'FlightMetadatas')) {
    many(fms, 'FlightMetadata').forEach((fm, i) => {
      if (attr(fm, 'MetadataKey') !== JOURNEYS_KEY) return;
      const p = `${base}/FlightMetadatas/FlightMetadata[${i + 1}]/AugmentationPoint`;
      const ap = opt(fm, 'AugmentationPoint');
      if (ap === undefined) return;
      many(ap, 'AugPoint').forEach((pt, j) => {
        const pp = `${p}/AugPoint[${j + 1}]`;
        const journey = opt(pt, extName('Journey'));
        if (journey === undefined) return; // foreign augmentation: ignored
        const transfer = one(journey, extName('Transfer'), `${pp}/ns2:Journey`);
        out.push({
          key: reqAttr(pt, 'Key', pp),
          transfer: decodeBoolean(text(transfer), `${pp}/ns2:Journey/ns2:Transfer`),
        });
      });
    });
  }
  return out;
}

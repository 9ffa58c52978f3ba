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

function hasMetadata(md: Metadata): boolean {
  return !!(
    md.journeys?.length ||
    md.languages?.length ||
    md.countries?.length ||
    md.cities?.length ||
    md.paymentForms?.length ||
    md.currencies?.length
  );
}

/** Appends `<Metadata>` to `parent` (nothing when `md` holds no entry). */
export function encodeMetadata(parent: XMLBuilder, md: Metadata, opts: MetadataEncodeOptions = {}): void {
  if (!hasMetadata(md)) return;
  const el = addEl(parent, 'Metadata');
  if (md.journeys?.length) {
    if (opts.shopping === false)
      throw new Error('journeys metadata is not allowed in this message (no Metadata/Shopping)');
    const fm = addEl(
      addEl(addEl(addEl(addEl(el, 'Shopping'), 'ShopMetadataGroup'), 'Flight'), 'FlightMetadatas'),
      'FlightMetadata',
    ).att('MetadataKey', JOURNEYS_KEY);
    const ap = addEl(fm, 'AugmentationPoint');
    for (const j of md.journeys) {
      addExt(addExt(addEl(ap, 'AugPoint').att('Key', j.key), 'Journey'), 'Transfer', j.transfer ? 'true' : 'false');
    }
  }
  if (!(
    md.languages?.length ||
    md.countries?.length ||
    md.cities?.length ||
    md.paymentForms?.length ||
    md.currencies?.length
  ))
    return;
  const other = addEl(el, 'Other');
  if (md.currencies?.length) {
    const list = addEl(addEl(other, 'OtherMetadata'), 'CurrencyMetadatas');
    for (const c of md.currencies) {
      const x = addEl(list, 'CurrencyMetadata').att('MetadataKey', c.key);
      addOptText(x, 'Application', c.application);
      addOptText(x, 'Decimals', c.decimals === undefined ? undefined : String(c.decimals));
      addOptText(x, 'Name', c.name);
    }
  }
  if (md.languages?.length) {
    const list = addEl(addEl(other, 'OtherMetadata'), 'LanguageMetadatas');
    for (const l of md.languages) {
      const x = addEl(list, 'LanguageMetadata').att('MetadataKey', l.key);
      addOptText(x, 'Code_ISO', l.codeIso);
      addOptText(x, 'Code_NLS', l.codeNls);
      addOptText(x, 'Name', l.name);
    }
  }
  if (md.countries?.length) {
    const list = addEl(addEl(other, 'OtherMetadata'), 'CountryMetadatas');
    for (const c of md.countries) {
      const x = addEl(list, 'CountryMetadata').att('MetadataKey', c.key);
      addOptText(x, 'ICAO_Code', c.icaoCode);
      addOptText(x, 'Name', c.name);
    }
  }
  if (md.cities?.length) {
    const list = addEl(addEl(other, 'OtherMetadata'), 'CityMetadatas');
    for (const c of md.cities) {
      const x = addEl(list, 'CityMetadata').att('MetadataKey', c.key);
      if (c.code === undefined && c.name === undefined) continue;
      const city = addExt(addEl(addEl(x, 'AugmentationPoint'), 'AugPoint'), 'City');
      if (c.code !== undefined) addExt(city, 'Code', c.code);
      if (c.name !== undefined) addExt(city, 'Name', c.name);
    }
  }
  if (md.paymentForms?.length) encodePaymentFormMetadatas(addEl(other, 'OtherMetadata'), md.paymentForms);
}

/** Reads a `<Metadata>` element (`node` undefined gives `{}`). Unknown metadata is ignored. */
export function decodeMetadata(node: XNode | undefined, path: string): Metadata {
  const md: Metadata = {};
  if (node === undefined) return md;
  const journeys = decodeJourneys(node, path);
  if (journeys.length) md.journeys = journeys;
  const languages: LanguageMetadata[] = [];
  const countries: CountryMetadata[] = [];
  const cities: CityMetadata[] = [];
  const paymentForms: { key: string; token: string }[] = [];
  const currencies: CurrencyMetadata[] = [];
  const other = opt(node, 'Other');
  if (other !== undefined) {
    many(other, 'OtherMetadata').forEach((om, i) => {
      const omPath = `${path}/Other/OtherMetadata[${i + 1}]`;
      for (const list of many(om, 'LanguageMetadatas')) {
        many(list, 'LanguageMetadata').forEach((l, j) => {
          const p = `${omPath}/LanguageMetadatas/LanguageMetadata[${j + 1}]`;
          const out: LanguageMetadata = { key: reqAttr(l, 'MetadataKey', p) };
          const iso = optValue(l, 'Code_ISO');
          if (iso !== undefined) out.codeIso = iso;
          const nls = optText(l, 'Code_NLS');
          if (nls !== undefined) out.codeNls = nls;
          const name = optValue(l, 'Name');
          if (name !== undefined) out.name = name;
          languages.push(out);
        });
      }
      for (const list of many(om, 'CountryMetadatas')) {
        many(list, 'CountryMetadata').forEach((c, j) => {
          const p = `${omPath}/CountryMetadatas/CountryMetadata[${j + 1}]`;
          const out: CountryMetadata = { key: reqAttr(c, 'MetadataKey', p) };
          const icao = optValue(c, 'ICAO_Code');
          if (icao !== undefined) out.icaoCode = icao;
          const name = optValue(c, 'Name');
          if (name !== undefined) out.name = name;
          countries.push(out);
        });
      }
      for (const list of many(om, 'CityMetadatas')) {
        many(list, 'CityMetadata').forEach((c, j) => {
          const p = `${omPath}/CityMetadatas/CityMetadata[${j + 1}]`;
          const out: CityMetadata = { key: reqAttr(c, 'MetadataKey', p) };
          const city = findAugPointExt(c, 'City');
          const code = city === undefined ? undefined : optValue(city, extName('Code'));
          if (code !== undefined) out.code = code;
          const name = city === undefined ? undefined : optValue(city, extName('Name'));
          if (name !== undefined) out.name = name;
          cities.push(out);
        });
      }
      for (const list of many(om, 'CurrencyMetadatas')) {
        many(list, 'CurrencyMetadata').forEach((c, j) => {
          const out: CurrencyMetadata = {
            key: reqAttr(c, 'MetadataKey', `${omPath}/CurrencyMetadatas/CurrencyMetadata[${j + 1}]`),
          };
          const application = optText(c, 'Application');
          if (application !== undefined && application !== '') out.application = application;
          // xsd:integer; a value we cannot use as a count of places is information we do without.
          const decimals = optText(c, 'Decimals');
          if (decimals !== undefined && /^\+?\d{1,3}$/.test(decimals)) out.decimals = Number(decimals);
          const name = optText(c, 'Name');
          if (name !== undefined && name !== '') out.name = name;
          currencies.push(out);
        });
      }
      many(om, 'PaymentFormMetadatas').forEach((list) => {
        paymentForms.push(...decodePaymentFormMetadatas(list, `${omPath}/PaymentFormMetadatas`));
      });
    });
  }
  if (languages.length) md.languages = languages;
  if (countries.length) md.countries = countries;
  if (cities.length) md.cities = cities;
  if (paymentForms.length) md.paymentForms = paymentForms;
  if (currencies.length) md.currencies = currencies;
  return md;
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

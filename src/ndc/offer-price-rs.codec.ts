/**
 * OfferPriceRS (NDC 17.2): Success, ShoppingResponseID, the one PricedOffer
 * (both directions of a round trip, items per passenger and direction, the
 * optional CCF2 card-surcharge item), DataLists and Metadata; or the error
 * form (`Errors` directly under the root, no `Document`).
 */
import type { ALaCarteOffer, ALaCarteOfferItem, OfferPriceRs, OtherOffers, PricedOffer } from './ndc.model';
import { encodeWarnings } from './common.codec';
import {
  decodeFlightsOverview,
  decodeOffer,
  decodeOfferItem,
  encodeDetailCurrencyPrice,
  encodeOffer,
  encodeFlightsOverview,
  encodeOfferItem,
} from './air-shopping-rs.codec';
import { decodeResponseHead, endErrorResponse, startResponse } from './response-frame';
import { decodeDataLists, encodeDataLists } from './data-lists.codec';
import { decodeMetadata, encodeMetadata, messageCurrency } from './metadata.codec';
import { decodePrice } from './price.codec';
import {
  addEl,
  addMoney,
  addRefs,
  decodeMoney,
  decodeRefs,
  domOf,
  endMessage,
  many,
  optText,
  text,
  one,
  opt,
  reqAttr,
  reqText,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
  type MessageCurrency,
} from './xml';

const ROOT = 'OfferPriceRS';

function encodePricedOffer(parent: XMLBuilder, o: PricedOffer): void {
  const el = addEl(parent, 'PricedOffer').att('OfferID', o.offerId).att('Owner', o.owner);
  if (o.total === undefined)
    throw new Error(`PricedOffer ${o.offerId}: only a price with a money total can be encoded`);
  encodeDetailCurrencyPrice(addEl(el, 'TotalPrice'), o.total, o.taxes);
  encodeFlightsOverview(el, o.flightsOverview);
  if (o.offerItems.length === 0) throw new Error(`PricedOffer ${o.offerId}: at least one offer item is required`);
  for (const item of o.offerItems) encodeOfferItem(el, item, 'detail');
}

/** The PricedOffer: `TotalPrice` (optional in the XSD) in any price form, FlightsOverview, items. */
function decodePricedOffer(node: XNode, path: string, currency: MessageCurrency): PricedOffer {
  const o: PricedOffer = {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    flightsOverview: decodeFlightsOverview(node, path),
    offerItems: [],
  };
  const tp = opt(node, 'TotalPrice');
  if (tp !== undefined) {
    const { amount, taxes, other } = decodePrice(tp, `${path}/TotalPrice`, currency);
    if (amount !== undefined) o.total = amount;
    if (taxes !== undefined) o.taxes = taxes;
    if (other !== undefined) o.otherPrice = other;
  }
  o.offerItems = many(node, 'OfferItem').map((it, i) => decodeOfferItem(it, `${path}/OfferItem[${i + 1}]`, currency));
  return o;
}

function decodeALaCarteItem(node: XNode, path: string, currency: MessageCurrency): ALaCarteOfferItem {
  const el = one(node, 'Eligibility', path);
  const eligibility: ALaCarteOfferItem['eligibility'] = {};
  for (const [key, name] of [
    ['passengerRefs', 'PassengerRefs'],
    ['segmentRefs', 'SegmentRefs'],
    ['priceClassRefs', 'PriceClassRefs'],
  ] as const) {
    const refs = opt(el, name);
    if (refs !== undefined) eligibility[key] = decodeRefs(text(refs));
  }
  const up = one(node, 'UnitPriceDetail', path);
  const upPath = `${path}/UnitPriceDetail`;
  const unitPrice: ALaCarteOfferItem['unitPrice'] = {};
  const { amount, taxes, other } = decodePrice(one(up, 'TotalAmount', upPath), `${upPath}/TotalAmount`, currency);
  if (amount !== undefined) unitPrice.total = amount;
  if (other !== undefined) unitPrice.otherPrice = other;
  const base = opt(up, 'BaseAmount');
  if (base !== undefined) unitPrice.base = decodeMoney(base, `${upPath}/BaseAmount`, currency);
  const taxTotal = opt(up, 'Taxes') === undefined ? undefined : opt(one(up, 'Taxes', upPath), 'Total');
  if (taxTotal !== undefined) unitPrice.taxes = decodeMoney(taxTotal, `${upPath}/Taxes/Total`, currency);
  else if (taxes !== undefined) unitPrice.taxes = taxes;
  const s = one(node, 'Service', path);
  const sPath = `${path}/Service`;
  const service: ALaCarteOfferItem['service'] = {
    serviceId: reqAttr(s, 'ServiceID', sPath),
    serviceDefinitionRef: reqText(s, 'ServiceDefinitionRef', sPath),
  };
  const ref = optText(s, 'ServiceRef');
  if (ref !== undefined) service.serviceRef = ref;
  return { offerItemId: reqAttr(node, 'OfferItemID', path), eligibility, unitPrice, service };
}

/** `OtherOffers`: its flight offers and its à-la-carte offer. */
function decodeOtherOffers(node: XNode, path: string, currency: MessageCurrency): OtherOffers {
  const out: OtherOffers = {
    offers: many(node, 'Offer').map((o, i) => decodeOffer(o, `${path}/Offer[${i + 1}]`, currency)),
  };
  const alc = opt(node, 'ALaCarteOffer');
  if (alc !== undefined) {
    const p = `${path}/ALaCarteOffer`;
    const offer: ALaCarteOffer = {
      offerId: reqAttr(alc, 'OfferID', p),
      owner: reqAttr(alc, 'Owner', p),
      items: many(alc, 'ALaCarteOfferItem').map((it, i) =>
        decodeALaCarteItem(it, `${p}/ALaCarteOfferItem[${i + 1}]`, currency),
      ),
    };
    const tp = opt(alc, 'TotalPrice');
    if (tp !== undefined) {
      const { amount, other } = decodePrice(tp, `${p}/TotalPrice`, currency);
      if (amount !== undefined) offer.totalPrice = amount;
      if (other !== undefined) offer.otherPrice = other;
    }
    out.aLaCarte = offer;
  }
  return out;
}

function encodeOtherOffers(parent: XMLBuilder, other: OtherOffers): void {
  const el = addEl(parent, 'OtherOffers');
  for (const o of other.offers) encodeOffer(domOf(el), o);
  const alc = other.aLaCarte;
  if (alc === undefined) return;
  const a = addEl(el, 'ALaCarteOffer').att('OfferID', alc.offerId).att('Owner', alc.owner);
  if (alc.totalPrice !== undefined) addMoney(addEl(a, 'TotalPrice'), 'SimpleCurrencyPrice', alc.totalPrice);
  if (alc.items.length === 0) throw new Error(`ALaCarteOffer ${alc.offerId}: at least one item is required`);
  for (const item of alc.items) {
    const it = addEl(a, 'ALaCarteOfferItem').att('OfferItemID', item.offerItemId);
    const el2 = addEl(it, 'Eligibility');
    if (item.eligibility.passengerRefs?.length) addRefs(el2, 'PassengerRefs', item.eligibility.passengerRefs);
    if (item.eligibility.segmentRefs?.length) addRefs(el2, 'SegmentRefs', item.eligibility.segmentRefs);
    if (item.eligibility.priceClassRefs?.length) addRefs(el2, 'PriceClassRefs', item.eligibility.priceClassRefs);
    const up = addEl(it, 'UnitPriceDetail');
    if (item.unitPrice.total === undefined)
      throw new Error(`ALaCarteOfferItem ${item.offerItemId}: only a money unit price can be encoded`);
    addMoney(addEl(up, 'TotalAmount'), 'SimpleCurrencyPrice', item.unitPrice.total);
    if (item.unitPrice.base !== undefined) addMoney(up, 'BaseAmount', item.unitPrice.base);
    if (item.unitPrice.taxes !== undefined) addMoney(addEl(up, 'Taxes'), 'Total', item.unitPrice.taxes);
    const s = addEl(it, 'Service').att('ServiceID', item.service.serviceId);
    if (item.service.serviceRef !== undefined) addEl(s, 'ServiceRef', item.service.serviceRef);
    addEl(s, 'ServiceDefinitionRef', item.service.serviceDefinitionRef);
  }
}

/**
 * Encodes an OfferPriceRS (item totals as `TotalAmount/DetailCurrencyPrice`
 * plus `BaseAmount`). Throws a plain `Error` for a model the schema cannot represent.
 */
export function encodeOfferPriceRs(msg: OfferPriceRs, opts?: EncodeOptions): string {
  const root = startResponse(ROOT, msg, opts);
  if (msg.kind === 'error') return endErrorResponse(root, msg, ROOT);
  addEl(root, 'Document');
  addEl(root, 'Success');
  if (msg.warnings?.length) encodeWarnings(root, msg.warnings);
  if (msg.shoppingResponseId !== undefined)
    addEl(addEl(root, 'ShoppingResponseID'), 'ResponseID', msg.shoppingResponseId);
  encodePricedOffer(root, msg.pricedOffer);
  if (msg.otherOffers !== undefined) encodeOtherOffers(root, msg.otherOffers);
  encodeDataLists(root, msg.dataLists);
  encodeMetadata(root, msg.metadata);
  return endMessage(root);
}

/** Decodes an OfferPriceRS (success or error form). Throws {@link NdcDecodeError}. */
export function decodeOfferPriceRs(xml: string | Buffer, opts?: ParseOptions): OfferPriceRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const metadata = decodeMetadata(opt(node, 'Metadata'), `${path}/Metadata`);
  const rs: OfferPriceRs = {
    ...rc,
    kind: 'success',
    pricedOffer: decodePricedOffer(one(node, 'PricedOffer', path), `${path}/PricedOffer`, messageCurrency(metadata)),
    dataLists: decodeDataLists(opt(node, 'DataLists'), `${path}/DataLists`),
    metadata,
  };
  const other = opt(node, 'OtherOffers');
  if (other !== undefined) rs.otherOffers = decodeOtherOffers(other, `${path}/OtherOffers`, messageCurrency(metadata));
  // Optional in the XSD.
  const sr = opt(node, 'ShoppingResponseID');
  if (sr !== undefined) rs.shoppingResponseId = reqText(sr, 'ResponseID', `${path}/ShoppingResponseID`);
  return rs;
}

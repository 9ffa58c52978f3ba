/**
 * The `ALaCarteOffer` of ServiceListRS and SeatAvailabilityRS: OfferID and Owner, then one
 * `ALaCarteOfferItem` per priced service (Eligibility, UnitPriceDetail, Service).
 */
import type { ALaCarteOffer, ALaCarteOfferItem } from './extras.model';
import { NdcDecodeError } from './ndc-decode-error';
import { decodePrice } from './price.codec';
import {
  addEl,
  addMoney,
  addRefs,
  decodeRefs,
  many,
  one,
  opt,
  reqAttr,
  text,
  type XMLBuilder,
  type XNode,
} from './xml';

/** Writes `<ALaCarteOffer>` (the items' unit prices as `SimpleCurrencyPrice`). Throws for an empty offer. */
export function encodeALaCarteOffer(parent: XMLBuilder, offer: ALaCarteOffer): void {
  if (offer.offerItems.length === 0) throw new Error(`ALaCarteOffer ${offer.offerId}: at least one item is required`);
  const el = addEl(parent, 'ALaCarteOffer').att('OfferID', offer.offerId).att('Owner', offer.owner);
  for (const item of offer.offerItems) encodeALaCarteOfferItem(el, item);
}

function encodeALaCarteOfferItem(parent: XMLBuilder, item: ALaCarteOfferItem): void {
  const el = addEl(parent, 'ALaCarteOfferItem').att('OfferItemID', item.offerItemId);
  const elig = addEl(el, 'Eligibility');
  if (item.passengerRefs.length) addRefs(elig, 'PassengerRefs', item.passengerRefs);
  if (item.segmentRefs.length) addRefs(elig, 'SegmentRefs', item.segmentRefs);
  if (item.priceClassRefs?.length) addRefs(elig, 'PriceClassRefs', item.priceClassRefs);
  if (item.unitPrice === undefined) {
    throw new Error(`ALaCarteOfferItem ${item.offerItemId}: only a price with money can be encoded`);
  }
  addMoney(addEl(addEl(el, 'UnitPriceDetail'), 'TotalAmount'), 'SimpleCurrencyPrice', item.unitPrice);
  addEl(addEl(el, 'Service').att('ServiceID', item.serviceId), 'ServiceDefinitionRef', item.serviceDefinitionRef);
}

/** Reads an `<ALaCarteOffer>`; `currency` is the message's, for amounts without `Code`. */
export function decodeALaCarteOffer(node: XNode, path: string, currency?: string): ALaCarteOffer {
  return {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    offerItems: many(node, 'ALaCarteOfferItem').map((it, i) =>
      decodeALaCarteOfferItem(it, `${path}/ALaCarteOfferItem[${i + 1}]`, currency),
    ),
  };
}

function decodeALaCarteOfferItem(node: XNode, path: string, currency: string | undefined): ALaCarteOfferItem {
  const elig = one(node, 'Eligibility', path);
  const service = one(node, 'Service', path);
  const sPath = `${path}/Service`;
  const ref = text(one(service, 'ServiceDefinitionRef', sPath));
  if (ref === '') throw new NdcDecodeError('MISSING', `${sPath}/ServiceDefinitionRef`, 'ServiceDefinitionRef is empty');
  const item: ALaCarteOfferItem = {
    offerItemId: reqAttr(node, 'OfferItemID', path),
    passengerRefs: refsOf(elig, 'PassengerRefs'),
    segmentRefs: refsOf(elig, 'SegmentRefs'),
    serviceId: reqAttr(service, 'ServiceID', sPath),
    serviceDefinitionRef: ref,
  };
  const pcs = opt(elig, 'PriceClassRefs');
  if (pcs !== undefined) item.priceClassRefs = decodeRefs(text(pcs));
  const upPath = `${path}/UnitPriceDetail`;
  const total = one(one(node, 'UnitPriceDetail', path), 'TotalAmount', upPath);
  const { amount, other } = decodePrice(total, `${upPath}/TotalAmount`, currency);
  if (amount !== undefined) item.unitPrice = amount;
  if (other !== undefined) item.otherPrice = other;
  return item;
}

/** The ids of an optional IDREFS child, `[]` when absent (its `Any...Ind` attribute is not modelled). */
function refsOf(node: XNode, name: string): string[] {
  const el = opt(node, name);
  return el === undefined ? [] : decodeRefs(text(el));
}

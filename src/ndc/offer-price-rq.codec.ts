/**
 * OfferPriceRQ: selected offers (OfferID, Owner, ResponseID) with their items
 * and passenger refs, PassengerList (optionally with Individual), Qualifier,
 * and the card-token PaymentFormMetadata (ns2:Token/ns2:Number).
 */
import type { OfferPriceRq, SelectedOffer, SelectedOfferItem } from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import {
  decodePassengerList,
  decodeQualifier,
  decodeRequestCommon,
  encodeParameters,
  encodePassengerList,
  encodeQualifier,
  encodeRequestCommon,
} from './common.codec';
import {
  addEl,
  addExt,
  addRefs,
  decodeInt,
  decodeRefs,
  endMessage,
  many,
  one,
  oneExt,
  optExt,
  opt,
  optText,
  parseNdc,
  reqText,
  reqAttr,
  text,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
} from './xml';

const ROOT = 'OfferPriceRQ';

/** A card token offered for surcharge pricing: PaymentFormMetadata MetadataKey and its ns2:Token/ns2:Number. */
export interface PaymentFormToken {
  key: string;
  token: string;
}

/** Serialises an OfferPriceRQ (valid against OfferPriceRQ.xsd). */
export function encodeOfferPriceRq(rq: OfferPriceRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  if (rq.parameters !== undefined) encodeParameters(root, rq.parameters);
  const query = addEl(root, 'Query');
  for (const offer of rq.offers) encodeSelectedOffer(query, offer);
  if (rq.qualifier !== undefined) encodeQualifier(root, rq.qualifier);
  if (rq.passengers.length > 0) encodePassengerList(addEl(root, 'DataLists'), rq.passengers);
  if (rq.paymentForms !== undefined && rq.paymentForms.length > 0) {
    encodePaymentFormMetadatas(addEl(addEl(addEl(root, 'Metadata'), 'Other'), 'OtherMetadata'), rq.paymentForms);
  }
  return endMessage(root);
}

/**
 * Parses and decodes an OfferPriceRQ; throws {@link NdcDecodeError}. `Query`
 * and its `Offer`s are optional in the XSD: without them `offers` is `[]`
 * (the airline answers that as a business error).
 */
export function decodeOfferPriceRq(xml: string | Buffer, opts?: ParseOptions): OfferPriceRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const queryPath = `${path}/Query`;
  const query = opt(node, 'Query');
  const offers = query === undefined ? [] : many(query, 'Offer');
  const rq: OfferPriceRq = {
    ...decodeRequestCommon(node, path),
    offers: offers.map((o, i) => decodeSelectedOffer(o, `${queryPath}/Offer[${i + 1}]`)),
    passengers: [],
  };
  const qualifier = opt(node, 'Qualifier');
  if (qualifier !== undefined) rq.qualifier = decodeQualifier(qualifier, `${path}/Qualifier`);
  const lists = opt(node, 'DataLists');
  const paxList = lists === undefined ? undefined : opt(lists, 'PassengerList');
  if (paxList !== undefined) rq.passengers = decodePassengerList(paxList, `${path}/DataLists/PassengerList`);
  const forms = decodeOtherPaymentForms(node, path);
  if (forms !== undefined) rq.paymentForms = forms;
  return rq;
}

/** `<Offer OfferID Owner ResponseID>` with `<OfferItem OfferItemID><PassengerRefs>`. */
export function encodeSelectedOffer(parent: XMLBuilder, offer: SelectedOffer): XMLBuilder {
  const el = addEl(parent, 'Offer')
    .att('OfferID', offer.offerId)
    .att('Owner', offer.owner)
    .att('ResponseID', offer.responseId);
  for (const item of offer.offerItems) encodeSelectedOfferItem(el, item);
  return el;
}

/**
 * `<OfferItem OfferItemID><PassengerRefs>a b</PassengerRefs></OfferItem>`, with the item's
 * `ALaCarteSelection` (Quantity, SegmentID) and `SeatSelection` (Row, Column) when set.
 */
export function encodeSelectedOfferItem(parent: XMLBuilder, item: SelectedOfferItem): void {
  const el = addEl(parent, 'OfferItem').att('OfferItemID', item.offerItemId);
  addRefs(el, 'PassengerRefs', item.passengerRefs);
  const alc = item.aLaCarteSelection;
  if (alc !== undefined) {
    const sel = addEl(el, 'ALaCarteSelection');
    addEl(sel, 'Quantity', String(alc.quantity));
    if (alc.segmentId !== undefined) addEl(sel, 'SegmentID', alc.segmentId);
  }
  if (item.seatSelection !== undefined) {
    const seat = addEl(el, 'SeatSelection');
    addEl(seat, 'Row', String(item.seatSelection.row));
    addEl(seat, 'Column', item.seatSelection.column);
  }
}

export function decodeSelectedOffer(node: XNode, path: string): SelectedOffer {
  return {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    responseId: reqAttr(node, 'ResponseID', path),
    offerItems: many(node, 'OfferItem').map((it, i) => decodeSelectedOfferItem(it, `${path}/OfferItem[${i + 1}]`)),
  };
}

export function decodeSelectedOfferItem(node: XNode, path: string): SelectedOfferItem {
  const item: SelectedOfferItem = {
    offerItemId: reqAttr(node, 'OfferItemID', path),
    passengerRefs: decodeRefs(text(one(node, 'PassengerRefs', path))),
  };
  const alc = opt(node, 'ALaCarteSelection');
  if (alc !== undefined) {
    const aPath = `${path}/ALaCarteSelection`;
    item.aLaCarteSelection = { quantity: decodeInt(text(one(alc, 'Quantity', aPath)), `${aPath}/Quantity`) };
    const seg = optText(alc, 'SegmentID');
    if (seg !== undefined && seg !== '') item.aLaCarteSelection.segmentId = seg;
  }
  const seat = opt(node, 'SeatSelection');
  if (seat !== undefined) {
    const sPath = `${path}/SeatSelection`;
    item.seatSelection = {
      row: decodeInt(text(one(seat, 'Row', sPath)), `${sPath}/Row`),
      column: reqText(seat, 'Column', sPath),
    };
  }
  return item;
}

/**
 * `<PaymentFormMetadatas>` inside `parent` (an OtherMetadata element), one
 * PaymentFormMetadata per token: `AugmentationPoint/AugPoint/ns2:Token/ns2:Number`.
 */
export function encodePaymentFormMetadatas(parent: XMLBuilder, forms: readonly PaymentFormToken[]): void {
  const list = addEl(parent, 'PaymentFormMetadatas');
  for (const f of forms) {
    const aug = addEl(
      addEl(addEl(list, 'PaymentFormMetadata').att('MetadataKey', f.key), 'AugmentationPoint'),
      'AugPoint',
    );
    addExt(addExt(aug, 'Token'), 'Number', f.token);
  }
}

/**
 * Reads a `<PaymentFormMetadatas>` element (`path` is its path): one token per
 * PaymentFormMetadata whose `AugmentationPoint/AugPoint` holds our
 * `ns2:Token/ns2:Number`. PaymentFormMetadata without it (another party's
 * metadata, or extension content of another namespace) is ignored.
 */
export function decodePaymentFormMetadatas(node: XNode, path: string): PaymentFormToken[] {
  const out: PaymentFormToken[] = [];
  many(node, 'PaymentFormMetadata').forEach((m, i) => {
    const mPath = `${path}/PaymentFormMetadata[${i + 1}]`;
    const ap = opt(m, 'AugmentationPoint');
    const augs = ap === undefined ? [] : many(ap, 'AugPoint');
    augs.forEach((aug, j) => {
      const token = optExt(aug, 'Token');
      if (token === undefined) return;
      const tokenPath = `${mPath}/AugmentationPoint/AugPoint[${j + 1}]/ns2:Token`;
      const num = text(oneExt(token, 'Number', tokenPath));
      if (num === '') throw new NdcDecodeError('MISSING', `${tokenPath}/ns2:Number`, 'card token is empty');
      out.push({ key: reqAttr(m, 'MetadataKey', mPath), token: num });
    });
  });
  return out;
}

/** Payment forms of `root/Metadata/Other/OtherMetadata[*]/PaymentFormMetadatas`, or undefined when there are none. */
function decodeOtherPaymentForms(root: XNode, path: string): PaymentFormToken[] | undefined {
  const meta = opt(root, 'Metadata');
  const other = meta === undefined ? undefined : opt(meta, 'Other');
  if (other === undefined) return undefined;
  const out: PaymentFormToken[] = [];
  let found = false;
  many(other, 'OtherMetadata').forEach((om, i) => {
    const pfm = opt(om, 'PaymentFormMetadatas');
    if (pfm === undefined) return;
    found = true;
    out.push(...decodePaymentFormMetadatas(pfm, `${path}/Metadata/Other/OtherMetadata[${i + 1}]/PaymentFormMetadatas`));
  });
  return found ? out : undefined;
}

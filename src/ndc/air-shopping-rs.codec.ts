/**
 * AirShoppingRS (NDC 17.2): the calendar form (PriceCalendar entries per
 * direction, OriginDestinationList, JOURNEYS metadata), the day form (offers
 * with items, services and fare details, every DataList, metadata) and the
 * error form (`Errors` directly under the root, no `Document`).
 *
 * Also home of the offer pieces shared with OfferPriceRS: FlightsOverview,
 * OfferItem (TotalPriceDetail, Service, FareDetail, FareComponent).
 */
import type {
  AirShoppingRs,
  Amount,
  CalendarAirlineOffers,
  FareComponent,
  FareDetail,
  FlightRef,
  NonMoneyPrice,
  Offer,
  OfferItem,
  OfferService,
  PriceCalendarEntry,
  PriceDetail,
  SegmentRef,
  SelectedSeat,
} from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import { encodeWarnings } from './common.codec';
import { decodeDataLists, domEl, domMoney, domOf, encodeDataLists, type DomElement } from './data-lists.codec';
import { decodeMetadata, encodeMetadata, messageCurrency } from './metadata.codec';
import { decodePrice } from './price.codec';
import { decodeResponseHead, endErrorResponse, startResponse } from './response-frame';
import {
  addDetached,
  domAttrNS,
  addEl,
  addMoney,
  attr,
  decodeMoney,
  decodeInt,
  decodeRefs,
  encodeRefs,
  endMessage,
  many,
  one,
  opt,
  optText,
  reqAttr,
  reqText,
  text,
  XSI_NS,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
  type MessageCurrency,
} from './xml';

const ROOT = 'AirShoppingRS';

// ================================================================ shared pieces

/** How an OfferItem writes its TotalPriceDetail. */
export type TotalsStyle =
  /** `TotalAmount/SimpleCurrencyPrice`, `BaseAmount`, `Taxes/Total` (AirShoppingRS). */
  | 'simple'
  /** `TotalAmount/DetailCurrencyPrice` with `Total` and `Taxes/Total`, then `BaseAmount` (OfferPriceRS). */
  | 'detail';

/** `<DetailCurrencyPrice><Total/><Taxes><Total/></Taxes></DetailCurrencyPrice>` under `parent` (no Taxes without `taxes`). */
export function encodeDetailCurrencyPrice(
  parent: XMLBuilder | DomElement,
  total: Amount,
  taxes: Amount | undefined,
): void {
  const d = domEl('node' in parent ? domOf(parent) : parent, 'DetailCurrencyPrice');
  domMoney(d, 'Total', total);
  if (taxes !== undefined) domMoney(domEl(d, 'Taxes'), 'Total', taxes);
}

/** The money total a price needs to be written by us (we write only money forms). */
function moneyToWrite(total: Amount | undefined, what: string): Amount {
  if (total === undefined) throw new Error(`${what}: only a price with a money total can be encoded`);
  return total;
}

/** `<FlightsOverview>` with one FlightRef per entry (nothing for an empty list). */
export function encodeFlightsOverview(parent: XMLBuilder | DomElement, refs: readonly FlightRef[]): void {
  if (refs.length === 0) return;
  const el = domEl('node' in parent ? domOf(parent) : parent, 'FlightsOverview');
  for (const r of refs) {
    const f = domEl(el, 'FlightRef', r.flightKey);
    if (r.odRef !== undefined) f.setAttribute('ODRef', r.odRef);
    if (r.priceClassRef !== undefined) f.setAttribute('PriceClassRef', r.priceClassRef);
  }
}

/** Reads the optional FlightsOverview child of `node` (absent gives `[]`). */
export function decodeFlightsOverview(node: XNode, path: string): FlightRef[] {
  const fo = opt(node, 'FlightsOverview');
  if (fo === undefined) return [];
  return many(fo, 'FlightRef').map((f, i) => {
    const p = `${path}/FlightsOverview/FlightRef[${i + 1}]`;
    const flightKey = text(f);
    if (flightKey === '') throw new NdcDecodeError('MISSING', p, 'FlightRef is empty');
    const r: FlightRef = { flightKey };
    const od = attr(f, 'ODRef');
    if (od !== undefined) r.odRef = od;
    const pc = attr(f, 'PriceClassRef');
    if (pc !== undefined) r.priceClassRef = pc;
    return r;
  });
}

function encodeService(parent: DomElement, s: OfferService): void {
  const el = domEl(parent, 'Service');
  el.setAttribute('ServiceID', s.serviceId);
  domEl(el, 'PassengerRefs', encodeRefs(s.passengerRefs));
  const set = [s.flightRefs, s.serviceDefinitionRef, s.selectedSeat].filter((v) => v !== undefined).length;
  if (set !== 1) {
    throw new Error(
      `Service ${s.serviceId}: exactly one of flightRefs, serviceDefinitionRef and selectedSeat must be set`,
    );
  }
  if (s.flightRefs !== undefined) domEl(el, 'FlightRefs', encodeRefs(s.flightRefs));
  if (s.serviceDefinitionRef !== undefined) {
    const sd = domEl(el, 'ServiceDefinitionRef', s.serviceDefinitionRef.ref);
    if (s.serviceDefinitionRef.segmentRefs?.length)
      sd.setAttribute('SegmentRefs', encodeRefs(s.serviceDefinitionRef.segmentRefs));
  }
  if (s.selectedSeat !== undefined) encodeSelectedSeat(el, s.selectedSeat);
}

/** `<SelectedSeat>`: `Seat/Row`, `Seat/Column`, `SegmentRef`, `ServiceDefinitionRef`. */
export function encodeSelectedSeat(parent: DomElement, seat: SelectedSeat): void {
  const el = domEl(parent, 'SelectedSeat');
  const place = domEl(el, 'Seat');
  domEl(place, 'Row', String(seat.row));
  domEl(place, 'Column', seat.column);
  domEl(el, 'SegmentRef', seat.segmentRef);
  domEl(el, 'ServiceDefinitionRef', seat.serviceDefinitionRef);
}

/** Reads a `<SelectedSeat>` (all four parts required by the XSD). */
export function decodeSelectedSeat(seat: XNode, sPath: string): SelectedSeat {
  const place = one(seat, 'Seat', sPath);
  return {
    row: decodeInt(reqText(place, 'Row', `${sPath}/Seat`), `${sPath}/Seat/Row`),
    // xs:string and untyped elements: present, but possibly empty.
    column: text(one(place, 'Column', `${sPath}/Seat`)),
    segmentRef: text(one(seat, 'SegmentRef', sPath)),
    serviceDefinitionRef: text(one(seat, 'ServiceDefinitionRef', sPath)),
  };
}

function decodeService(node: XNode, path: string): OfferService {
  const s: OfferService = {
    serviceId: reqAttr(node, 'ServiceID', path),
    passengerRefs: decodeRefs(text(one(node, 'PassengerRefs', path))),
  };
  const flights = opt(node, 'FlightRefs');
  const sd = opt(node, 'ServiceDefinitionRef');
  if (flights !== undefined) s.flightRefs = decodeRefs(text(flights));
  if (sd !== undefined) {
    const ref = text(sd);
    if (ref === '')
      throw new NdcDecodeError('MISSING', `${path}/ServiceDefinitionRef`, 'ServiceDefinitionRef is empty');
    s.serviceDefinitionRef = { ref };
    const segs = decodeRefs(attr(sd, 'SegmentRefs'));
    if (segs.length) s.serviceDefinitionRef.segmentRefs = segs;
  }
  const seat = opt(node, 'SelectedSeat');
  if (seat !== undefined) s.selectedSeat = decodeSelectedSeat(seat, `${path}/SelectedSeat`);
  if (flights === undefined && sd === undefined && seat === undefined) {
    throw new NdcDecodeError(
      'MISSING',
      `${path}/FlightRefs`,
      'a Service needs FlightRefs, ServiceDefinitionRef or SelectedSeat',
    );
  }
  return s;
}

function encodeFareComponent(parent: DomElement, fc: FareComponent): void {
  const el = domEl(parent, 'FareComponent');
  if (fc.rbd !== undefined || fc.cabinTypeCode !== undefined || fc.cabinTypeName !== undefined) {
    const fb = domEl(el, 'FareBasis');
    if (fc.rbd !== undefined) domEl(fb, 'RBD', fc.rbd);
    const cabin = domEl(fb, 'CabinType');
    domAttrNS(domEl(cabin, 'CabinTypeCode', fc.cabinTypeCode ?? ''), XSI_NS, 'xsi:type', 'xs:string');
    domAttrNS(domEl(cabin, 'CabinTypeName', fc.cabinTypeName ?? ''), XSI_NS, 'xsi:type', 'xs:string');
  }
  if (fc.priceClassRef !== undefined) domEl(el, 'PriceClassRef', fc.priceClassRef);
  if (fc.segmentRefs !== undefined) {
    const sr = domEl(el, 'SegmentRefs', encodeRefs(fc.segmentRefs.segmentKeys));
    if (fc.segmentRefs.onPoint !== undefined) sr.setAttribute('ON_Point', fc.segmentRefs.onPoint);
    if (fc.segmentRefs.offPoint !== undefined) sr.setAttribute('OFF_Point', fc.segmentRefs.offPoint);
  }
}

/** A FareComponent: `FareBasis` (optional) with `RBD?` and `CabinType` (codes empty = absent). */
function decodeFareComponent(node: XNode, path: string): FareComponent {
  const fc: FareComponent = {};
  const fb = opt(node, 'FareBasis');
  if (fb !== undefined) {
    const fbPath = `${path}/FareBasis`;
    const cabin = one(fb, 'CabinType', fbPath);
    const cPath = `${fbPath}/CabinType`;
    const fields = [
      ['rbd', optText(fb, 'RBD')],
      ['cabinTypeCode', text(one(cabin, 'CabinTypeCode', cPath))],
      ['cabinTypeName', text(one(cabin, 'CabinTypeName', cPath))],
    ] as const;
    for (const [key, value] of fields) if (value !== undefined && value !== '') fc[key] = value;
  }
  const pc = optText(node, 'PriceClassRef');
  if (pc !== undefined && pc !== '') fc.priceClassRef = pc;
  const sr = opt(node, 'SegmentRefs');
  if (sr !== undefined) {
    const ref: SegmentRef = { segmentKeys: decodeRefs(text(sr)) };
    const on = attr(sr, 'ON_Point');
    if (on !== undefined) ref.onPoint = on;
    const off = attr(sr, 'OFF_Point');
    if (off !== undefined) ref.offPoint = off;
    fc.segmentRefs = ref;
  }
  return fc;
}

/** `<FareDetail>`: PassengerRefs, Price (TotalAmount, BaseAmount, Taxes), FareComponents. */
export function encodeFareDetail(parent: DomElement, fd: FareDetail): void {
  const el = domEl(parent, 'FareDetail');
  domEl(el, 'PassengerRefs', encodeRefs(fd.passengerRefs));
  const price = domEl(el, 'Price');
  // FarePriceDetailType: TotalAmount?, BaseAmount, ..., Taxes?. Taxes go inside the
  // DetailCurrencyPrice when there is a total, else in Price/Taxes/Total.
  if (fd.total !== undefined) encodeDetailCurrencyPrice(domEl(price, 'TotalAmount'), fd.total, fd.taxes);
  else if (fd.otherPrice !== undefined) moneyToWrite(undefined, `FareDetail of ${fd.passengerRefs.join(' ')}`);
  domMoney(price, 'BaseAmount', fd.base);
  if (fd.total === undefined && fd.taxes !== undefined) domMoney(domEl(price, 'Taxes'), 'Total', fd.taxes);
  for (const fc of fd.fareComponents) encodeFareComponent(el, fc);
}

/** The amounts of a `TotalPriceDetail` or a FareDetail `Price`, each optional as in the XSD. */
interface ItemAmounts {
  total?: Amount;
  otherPrice?: NonMoneyPrice;
  base?: Amount;
  taxes?: Amount;
}

/**
 * The item-level amounts of `node` as the message gives them: `TotalAmount` in any price form
 * (money in `total`, award, combination or Equivalent in `otherPrice`), `BaseAmount`, and taxes
 * from `Taxes/Total` or the DetailCurrencyPrice's. Nothing is required here: logic that needs an
 * amount asks for it with `requireMoney` where it uses it.
 */
function itemAmounts(node: XNode, path: string, currency: MessageCurrency): ItemAmounts {
  const out: ItemAmounts = {};
  const ta = opt(node, 'TotalAmount');
  let detailTaxes: Amount | undefined;
  if (ta !== undefined) {
    const { amount, taxes, other } = decodePrice(ta, `${path}/TotalAmount`, currency);
    if (amount !== undefined) out.total = amount;
    if (other !== undefined) out.otherPrice = other;
    detailTaxes = taxes;
  }
  const base = opt(node, 'BaseAmount');
  if (base !== undefined) out.base = decodeMoney(base, `${path}/BaseAmount`, currency);
  const tx = opt(node, 'Taxes');
  const txTotal = tx === undefined ? undefined : opt(tx, 'Total');
  const taxes = txTotal !== undefined ? decodeMoney(txTotal, `${path}/Taxes/Total`, currency) : detailTaxes;
  if (taxes !== undefined) out.taxes = taxes;
  return out;
}

/** FareDetail: `Price` with TotalAmount (optional, any form), BaseAmount (required), taxes; FareComponents. */
/** Reads a `<FareDetail>` (`Price/BaseAmount` required, the rest optional as in the XSD). */
export function decodeFareDetail(node: XNode, path: string, currency: MessageCurrency): FareDetail {
  const price = one(node, 'Price', path);
  const pricePath = `${path}/Price`;
  const { base, ...amounts } = itemAmounts(price, pricePath, currency);
  if (base === undefined) throw new NdcDecodeError('MISSING', `${pricePath}/BaseAmount`, 'BaseAmount is missing');
  return {
    passengerRefs: decodeRefs(optText(node, 'PassengerRefs')),
    ...amounts,
    base,
    fareComponents: many(node, 'FareComponent').map((fc, i) =>
      decodeFareComponent(fc, `${path}/FareComponent[${i + 1}]`),
    ),
  };
}

/** `TotalAmount` (required: only a money total can be written), then the base and taxes that are set. */
export function encodeTotalPriceDetail(parent: DomElement, pd: PriceDetail, style: TotalsStyle, itemId: string): void {
  const el = domEl(parent, 'TotalPriceDetail');
  const ta = domEl(el, 'TotalAmount');
  const total = moneyToWrite(pd.total, `OfferItem ${itemId}`);
  if (style === 'simple') {
    domMoney(ta, 'SimpleCurrencyPrice', total);
    if (pd.base !== undefined) domMoney(el, 'BaseAmount', pd.base);
    if (pd.taxes !== undefined) domMoney(domEl(el, 'Taxes'), 'Total', pd.taxes);
  } else {
    encodeDetailCurrencyPrice(ta, total, pd.taxes);
    if (pd.base !== undefined) domMoney(el, 'BaseAmount', pd.base);
  }
}

/** Accepts both styles, and every price form of `TotalAmount` (required by the XSD; see `itemAmounts`). */
export function decodeTotalPriceDetail(node: XNode, path: string, currency: MessageCurrency): PriceDetail {
  one(node, 'TotalAmount', path);
  return itemAmounts(node, path, currency);
}

/**
 * `<OfferItem OfferItemID>` (or another element of the same content, `name`, e.g. OrderReshopRS
 * `AddOfferItem`): TotalPriceDetail (in `style`), Services, FareDetails. Returns the element, for
 * what a message adds after them.
 */
export function encodeOfferItem(
  parent: XMLBuilder | DomElement,
  item: OfferItem,
  style: TotalsStyle,
  name = 'OfferItem',
): DomElement {
  const el = domEl('node' in parent ? domOf(parent) : parent, name);
  el.setAttribute('OfferItemID', item.offerItemId);
  encodeTotalPriceDetail(el, item.priceDetail, style, item.offerItemId);
  if (item.services.length === 0) throw new Error(`OfferItem ${item.offerItemId}: at least one service is required`);
  for (const s of item.services) encodeService(el, s);
  for (const fd of item.fareDetails) encodeFareDetail(el, fd);
  return el;
}

/** Reads an OfferItem (either TotalPriceDetail style); `currency` is the message's, for amounts without `Code`. */
export function decodeOfferItem(node: XNode, path: string, currency: MessageCurrency): OfferItem {
  return {
    offerItemId: reqAttr(node, 'OfferItemID', path),
    priceDetail: decodeTotalPriceDetail(one(node, 'TotalPriceDetail', path), `${path}/TotalPriceDetail`, currency),
    services: many(node, 'Service').map((s, i) => decodeService(s, `${path}/Service[${i + 1}]`)),
    fareDetails: many(node, 'FareDetail').map((f, i) => decodeFareDetail(f, `${path}/FareDetail[${i + 1}]`, currency)),
  };
}

// ================================================================ AirShoppingRS

/** Writes an `Offer` (AirShoppingRS, and OfferPriceRS `OtherOffers`). */
export function encodeOffer(parent: DomElement, o: Offer): void {
  const el = domEl(parent, 'Offer');
  el.setAttribute('OfferID', o.offerId);
  el.setAttribute('Owner', o.owner);
  domMoney(domEl(el, 'TotalPrice'), 'SimpleCurrencyPrice', moneyToWrite(o.totalPrice, `Offer ${o.offerId}`));
  encodeFlightsOverview(el, o.flightsOverview);
  if (o.offerItems.length === 0) throw new Error(`Offer ${o.offerId}: at least one offer item is required`);
  for (const item of o.offerItems) encodeOfferItem(el, item, 'simple');
}

/** An Offer: `TotalPrice` (optional) in any price form, FlightsOverview, items. */
export function decodeOffer(node: XNode, path: string, currency: MessageCurrency): Offer {
  const o: Offer = {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    flightsOverview: decodeFlightsOverview(node, path),
    offerItems: [],
  };
  const tp = opt(node, 'TotalPrice');
  if (tp !== undefined) {
    const { amount, other } = decodePrice(tp, `${path}/TotalPrice`, currency);
    if (amount !== undefined) o.totalPrice = amount;
    if (other !== undefined) o.otherPrice = other;
  }
  o.offerItems = many(node, 'OfferItem').map((it, i) => decodeOfferItem(it, `${path}/OfferItem[${i + 1}]`, currency));
  return o;
}

function encodePriceCalendar(parent: XMLBuilder, e: PriceCalendarEntry): void {
  const el = addEl(parent, 'PriceCalendar');
  if (e.dates.length === 0) throw new Error('PriceCalendar needs at least one date');
  for (const d of e.dates) {
    const date = addEl(el, 'PriceCalendarDate', d.date);
    if (d.originDestinationRef !== undefined) date.att('OriginDestinationReference', d.originDestinationRef);
  }
  // EncodedPriceType: Code is required here.
  const tp = addMoney(el, 'TotalPrice', e.totalPrice, true);
  if (e.augPointRefs?.length) tp.att('refs', encodeRefs(e.augPointRefs));
}

function decodePriceCalendar(node: XNode, path: string, currency: MessageCurrency): PriceCalendarEntry {
  const dates = many(node, 'PriceCalendarDate');
  if (dates.length === 0)
    throw new NdcDecodeError('MISSING', `${path}/PriceCalendarDate`, 'required element PriceCalendarDate is missing');
  const tp = one(node, 'TotalPrice', path);
  const e: PriceCalendarEntry = {
    dates: dates.map((d, i) => {
      const dPath = `${path}/PriceCalendarDate[${i + 1}]`;
      const date = text(d);
      if (date === '') throw new NdcDecodeError('MISSING', dPath, 'PriceCalendarDate is empty');
      const od = attr(d, 'OriginDestinationReference');
      return od === undefined || od === '' ? { date } : { date, originDestinationRef: od };
    }),
    totalPrice: decodeMoney(tp, `${path}/TotalPrice`, currency),
  };
  const refs = decodeRefs(attr(tp, 'refs'));
  if (refs.length) e.augPointRefs = refs;
  return e;
}

/**
 * Encodes an AirShoppingRS. Success forms write `Document` and `Success`
 * first (the schema requires both); the error form writes only `Errors`.
 * Throws a plain `Error` for a model the schema cannot represent.
 */
export function encodeAirShoppingRs(msg: AirShoppingRs, opts?: EncodeOptions): string {
  const root = startResponse(ROOT, msg, opts);
  if (msg.kind === 'error') return endErrorResponse(root, msg, ROOT);
  addEl(root, 'Document');
  addEl(root, 'Success');
  if (msg.warnings?.length) encodeWarnings(root, msg.warnings);
  if (msg.kind === 'day') addEl(addEl(root, 'ShoppingResponseID'), 'ResponseID', msg.shoppingResponseId);
  const og = addEl(root, 'OffersGroup');
  if (msg.airlineOffers.length === 0) throw new Error('AirShoppingRS needs at least one AirlineOffers group');
  if (msg.kind === 'day') {
    for (const group of msg.airlineOffers) {
      const ao = addEl(og, 'AirlineOffers');
      // One detached subtree per offer: see addDetached (short-lived DOM, the bulk of a large response).
      for (const o of group.offers) addDetached(ao, (el) => encodeOffer(el, o));
    }
  } else {
    for (const group of msg.airlineOffers) {
      const ao = addEl(og, 'AirlineOffers');
      for (const e of group.priceCalendar) encodePriceCalendar(ao, e);
    }
  }
  encodeDataLists(root, msg.dataLists);
  encodeMetadata(root, msg.metadata);
  return endMessage(root);
}

/**
 * Decodes an AirShoppingRS. `Errors` gives the error form; otherwise a
 * ShoppingResponseID gives the day form and its absence the calendar form
 * (as in the spec: a calendar response has neither ShoppingResponseID nor offers).
 * Throws {@link NdcDecodeError}.
 */
export function decodeAirShoppingRs(xml: string | Buffer, opts?: ParseOptions): AirShoppingRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const og = one(node, 'OffersGroup', path);
  const groups = many(og, 'AirlineOffers');
  const dataLists = decodeDataLists(opt(node, 'DataLists'), `${path}/DataLists`);
  const metadata = decodeMetadata(opt(node, 'Metadata'), `${path}/Metadata`);
  const currency = messageCurrency(metadata);
  const sr = opt(node, 'ShoppingResponseID');
  if (sr !== undefined) {
    return {
      ...rc,
      kind: 'day',
      shoppingResponseId: reqText(sr, 'ResponseID', `${path}/ShoppingResponseID`),
      airlineOffers: groups.map((g, i) => {
        const gPath = `${path}/OffersGroup/AirlineOffers[${i + 1}]`;
        return { offers: many(g, 'Offer').map((o, j) => decodeOffer(o, `${gPath}/Offer[${j + 1}]`, currency)) };
      }),
      dataLists,
      metadata,
    };
  }
  const calendar: CalendarAirlineOffers[] = groups.map((g, i) => {
    const gPath = `${path}/OffersGroup/AirlineOffers[${i + 1}]`;
    return {
      priceCalendar: many(g, 'PriceCalendar').map((pc, j) =>
        decodePriceCalendar(pc, `${gPath}/PriceCalendar[${j + 1}]`, currency),
      ),
    };
  });
  return { ...rc, kind: 'calendar', airlineOffers: calendar, dataLists, metadata };
}

/**
 * `DataLists` of the NDC 17.2 responses (AirShoppingRS, OfferPriceRS,
 * OrderViewRS): passengers, contacts, baggage allowances, flight segments,
 * flights, origin/destinations, price classes and service definitions.
 *
 * The three response schemas declare identical list structures, so one codec
 * serves them all. Lists are written in XSD order; an absent or empty list is
 * not written, and an absent list decodes to an absent property (never `[]`).
 */
import type {
  BaggageAllowance,
  ClassOfService,
  DataLists,
  Flight,
  FlightSegment,
  Carrier,
  DepartureLocation,
  Location,
  OperatingCarrier,
  OriginDestination,
  Penalty,
  PenaltyDetail,
  PieceMeasurement,
  PriceClass,
  ServiceDefinition,
} from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import { decodeContactList, decodePassengerList, encodeContactList, encodePassengerList } from './common.codec';
import {
  addEl,
  addMoney,
  addOptText,
  addRefs,
  attr,
  decodeDecimal,
  decodeBoolean,
  decodeInt,
  decodeMoney,
  decodeRefs,
  encodeRefs,
  many,
  one,
  opt,
  optText,
  optValue,
  reqAttr,
  reqText,
  text,
  type XMLBuilder,
  type XNode,
} from './xml';

// The fast DOM writers live in xml.ts; re-exported here, where they first lived.
export { domEl, domMoney, domOf, type DomElement } from './xml';

// --------------------------------------------------------------------- writing

/** True when `dl` has at least one non-empty list (i.e. a DataLists element is worth writing). */
export function hasDataLists(dl: DataLists): boolean {
  return (
    !!dl.passengers?.length ||
    !!dl.contacts?.length ||
    !!dl.baggageAllowances?.length ||
    !!dl.flightSegments?.length ||
    !!dl.flights?.length ||
    !!dl.originDestinations?.length ||
    !!dl.penalties?.length ||
    !!dl.priceClasses?.length ||
    !!dl.serviceDefinitions?.length
  );
}

/** Appends `<DataLists>` with its non-empty lists to `parent`; writes nothing when all are empty. */
export function encodeDataLists(parent: XMLBuilder, dl: DataLists): void {
  if (!hasDataLists(dl)) return;
  const el = addEl(parent, 'DataLists');
  if (dl.passengers?.length) encodePassengerList(el, dl.passengers);
  if (dl.contacts?.length) encodeContactList(el, dl.contacts);
  if (dl.baggageAllowances?.length) {
    const list = addEl(el, 'BaggageAllowanceList');
    for (const b of dl.baggageAllowances) encodeBaggageAllowance(list, b);
  }
  if (dl.flightSegments?.length) {
    const list = addEl(el, 'FlightSegmentList');
    for (const s of dl.flightSegments) encodeFlightSegment(list, s);
  }
  if (dl.flights?.length) {
    const list = addEl(el, 'FlightList');
    for (const f of dl.flights) encodeFlight(list, f);
  }
  if (dl.originDestinations?.length) {
    const list = addEl(el, 'OriginDestinationList');
    for (const od of dl.originDestinations) encodeOriginDestination(list, od);
  }
  if (dl.penalties?.length) {
    const list = addEl(el, 'PenaltyList');
    for (const p of dl.penalties) encodePenalty(list, p);
  }
  if (dl.priceClasses?.length) {
    const list = addEl(el, 'PriceClassList');
    for (const pc of dl.priceClasses) encodePriceClass(list, pc);
  }
  if (dl.serviceDefinitions?.length) {
    const list = addEl(el, 'ServiceDefinitionList');
    for (const sd of dl.serviceDefinitions) encodeServiceDefinition(list, sd);
  }
}

/** `<Penalty>` (PenaltyList entry, or an offer's OfferPenaltyType): indicators, key, then `Details/Detail` (Type, amount). */
export function encodePenalty(parent: XMLBuilder, p: Penalty): void {
  const el = addEl(parent, 'Penalty');
  if (p.cancelFee !== undefined) el.att('CancelFeeInd', String(p.cancelFee));
  if (p.changeFee !== undefined) el.att('ChangeFeeInd', String(p.changeFee));
  if (p.refundable !== undefined) el.att('RefundableInd', String(p.refundable));
  if (p.penaltyId !== undefined) el.att('ObjectKey', p.penaltyId);
  if (p.details.length === 0) return;
  const details = addEl(el, 'Details');
  for (const d of p.details) {
    const detail = addEl(details, 'Detail');
    addEl(detail, 'Type', d.type);
    if (d.amount !== undefined) addMoney(addEl(addEl(detail, 'Amounts'), 'Amount'), 'CurrencyAmountValue', d.amount);
  }
}

function encodeBaggageAllowance(parent: XMLBuilder, b: BaggageAllowance): void {
  const el = addEl(parent, 'BaggageAllowance').att('BaggageAllowanceID', b.baggageAllowanceId);
  addEl(el, 'BaggageCategory', b.category);
  const pa = b.pieceAllowance;
  if (pa === undefined) return;
  const p = addEl(el, 'PieceAllowance');
  addEl(p, 'ApplicableParty', pa.applicableParty);
  addEl(p, 'TotalQuantity', String(pa.totalQuantity));
  for (const m of pa.measurements) encodePieceMeasurement(p, m, b.baggageAllowanceId);
}

function encodePieceMeasurement(parent: XMLBuilder, m: PieceMeasurement, id: string): void {
  const el = addEl(parent, 'PieceMeasurements').att('Quantity', String(m.quantity));
  if (m.maximumWeight === undefined) {
    if (m.applicableBag !== undefined) {
      throw new Error(
        `BaggageAllowance ${id}: applicableBag needs maximumWeight (PieceWeightAllowance requires MaximumWeight)`,
      );
    }
    return;
  }
  const w = addEl(el, 'PieceWeightAllowance');
  const mw = addEl(w, 'MaximumWeight');
  addEl(mw, 'Value', m.maximumWeight.value);
  addEl(mw, 'UOM', m.maximumWeight.uom);
  addOptText(w, 'ApplicableBag', m.applicableBag);
}

function encodeLocation(parent: XMLBuilder, name: string, l: Location): void {
  const el = addEl(parent, name);
  if (l.refs?.length) el.att('refs', encodeRefs(l.refs));
  addEl(el, 'AirportCode', l.airportCode);
  addOptText(el, 'Date', l.date);
  addOptText(el, 'Time', l.time);
  addOptText(el, 'AirportName', l.airportName);
}

function encodeCarrier(parent: XMLBuilder, name: string, c: Carrier | OperatingCarrier): void {
  const el = addEl(parent, name);
  addOptText(el, 'AirlineID', c.airlineId);
  addOptText(el, 'Name', c.name);
  addOptText(el, 'FlightNumber', c.flightNumber);
}

function encodeFlightSegment(parent: XMLBuilder, s: FlightSegment): void {
  const el = addEl(parent, 'FlightSegment').att('SegmentKey', s.segmentKey);
  encodeLocation(el, 'Departure', s.departure);
  encodeLocation(el, 'Arrival', s.arrival);
  encodeCarrier(el, 'MarketingCarrier', s.marketingCarrier);
  if (s.operatingCarrier !== undefined) encodeCarrier(el, 'OperatingCarrier', s.operatingCarrier);
  if (s.aircraftCode !== undefined) addEl(addEl(el, 'Equipment'), 'AircraftCode', s.aircraftCode);
  if (s.classOfService !== undefined) addEl(addEl(el, 'ClassOfService'), 'Code', s.classOfService);
  if (s.duration !== undefined) addEl(addEl(addEl(el, 'FlightDetail'), 'FlightDuration'), 'Value', s.duration);
}

function encodeFlight(parent: XMLBuilder, f: Flight): void {
  const el = addEl(parent, 'Flight');
  if (f.flightKey !== undefined) el.att('FlightKey', f.flightKey);
  if (f.journeyTime !== undefined) addEl(addEl(el, 'Journey'), 'Time', f.journeyTime);
  addRefs(el, 'SegmentReferences', f.segmentRefs);
}

function encodeOriginDestination(parent: XMLBuilder, od: OriginDestination): void {
  const el = addEl(parent, 'OriginDestination');
  if (od.originDestinationKey !== undefined) el.att('OriginDestinationKey', od.originDestinationKey);
  addEl(el, 'DepartureCode', od.departureCode);
  addEl(el, 'ArrivalCode', od.arrivalCode);
  if (od.flightRefs?.length) addRefs(el, 'FlightReferences', od.flightRefs);
}

function encodePriceClass(parent: XMLBuilder, pc: PriceClass): void {
  const el = addEl(parent, 'PriceClass');
  if (pc.priceClassId !== undefined) el.att('PriceClassID', pc.priceClassId);
  addEl(el, 'Name', pc.name);
  addOptText(el, 'Code', pc.code);
  for (const cos of pc.classesOfService ?? []) {
    const c = addEl(el, 'ClassOfService');
    if (cos.segmentRefs?.length) c.att('refs', encodeRefs(cos.segmentRefs));
    const code = addEl(c, 'Code', cos.code);
    if (cos.seatsLeft !== undefined) code.att('SeatsLeft', String(cos.seatsLeft));
  }
}

function encodeServiceDefinition(parent: XMLBuilder, sd: ServiceDefinition): void {
  const el = addEl(parent, 'ServiceDefinition').att('ServiceDefinitionID', sd.serviceDefinitionId);
  addEl(el, 'Name', sd.name);
  if (sd.bundleRefs?.length && sd.baggageAllowanceRef !== undefined) {
    throw new Error(
      `ServiceDefinition ${sd.serviceDefinitionId}: bundleRefs and baggageAllowanceRef are exclusive in NDC 17.2`,
    );
  }
  if (sd.baggageAllowanceRef !== undefined) addEl(el, 'BaggageAllowanceRef', sd.baggageAllowanceRef);
  if (sd.bundleRefs?.length) {
    const b = addEl(el, 'ServiceBundle');
    for (const r of sd.bundleRefs) addEl(b, 'ServiceDefinitionRef', r);
  }
  if (sd.encodingCode !== undefined) addEl(addEl(el, 'Encoding'), 'Code', sd.encodingCode);
  if (sd.descriptions.length === 0) {
    throw new Error(`ServiceDefinition ${sd.serviceDefinitionId}: at least one description is required`);
  }
  const ds = addEl(el, 'Descriptions');
  for (const d of sd.descriptions) addEl(addEl(ds, 'Description'), 'Text', d);
}

// --------------------------------------------------------------------- reading

/** Reads a `<DataLists>` element (`node` undefined gives `{}`). Unknown lists are ignored. */
export function decodeDataLists(node: XNode | undefined, path: string): DataLists {
  const dl: DataLists = {};
  if (node === undefined) return dl;
  const pax = opt(node, 'PassengerList');
  if (pax !== undefined) dl.passengers = decodePassengerList(pax, `${path}/PassengerList`);
  const contacts = opt(node, 'ContactList');
  if (contacts !== undefined) dl.contacts = decodeContactList(contacts, `${path}/ContactList`);
  const bags = opt(node, 'BaggageAllowanceList');
  if (bags !== undefined) {
    const p = `${path}/BaggageAllowanceList`;
    dl.baggageAllowances = many(bags, 'BaggageAllowance').map((b, i) =>
      decodeBaggageAllowance(b, `${p}/BaggageAllowance[${i + 1}]`),
    );
  }
  const segs = opt(node, 'FlightSegmentList');
  if (segs !== undefined) {
    const p = `${path}/FlightSegmentList`;
    dl.flightSegments = many(segs, 'FlightSegment').map((s, i) =>
      decodeFlightSegment(s, `${p}/FlightSegment[${i + 1}]`),
    );
  }
  const flights = opt(node, 'FlightList');
  if (flights !== undefined) {
    const p = `${path}/FlightList`;
    dl.flights = many(flights, 'Flight').map((f, i) => decodeFlight(f, `${p}/Flight[${i + 1}]`));
  }
  const ods = opt(node, 'OriginDestinationList');
  if (ods !== undefined) {
    const p = `${path}/OriginDestinationList`;
    dl.originDestinations = many(ods, 'OriginDestination').map((o, i) =>
      decodeOriginDestination(o, `${p}/OriginDestination[${i + 1}]`),
    );
  }
  const penalties = opt(node, 'PenaltyList');
  if (penalties !== undefined) {
    const p = `${path}/PenaltyList`;
    dl.penalties = many(penalties, 'Penalty').map((x, i) => decodePenalty(x, `${p}/Penalty[${i + 1}]`));
  }
  const pcs = opt(node, 'PriceClassList');
  if (pcs !== undefined) {
    const p = `${path}/PriceClassList`;
    dl.priceClasses = many(pcs, 'PriceClass').map((c, i) => decodePriceClass(c, `${p}/PriceClass[${i + 1}]`));
  }
  const sds = opt(node, 'ServiceDefinitionList');
  if (sds !== undefined) {
    const p = `${path}/ServiceDefinitionList`;
    dl.serviceDefinitions = many(sds, 'ServiceDefinition').map((s, i) =>
      decodeServiceDefinition(s, `${p}/ServiceDefinition[${i + 1}]`),
    );
  }
  return dl;
}

/** Reads a `<Penalty>` (PenaltyType or OfferPenaltyType); detail amounts other than `CurrencyAmountValue` are not modelled. */
export function decodePenalty(node: XNode, path: string): Penalty {
  const p: Penalty = { details: [] };
  const key = attr(node, 'ObjectKey');
  if (key !== undefined) p.penaltyId = key;
  const cancelFee = attr(node, 'CancelFeeInd');
  if (cancelFee !== undefined) p.cancelFee = decodeBoolean(cancelFee, `${path}/@CancelFeeInd`);
  const changeFee = attr(node, 'ChangeFeeInd');
  if (changeFee !== undefined) p.changeFee = decodeBoolean(changeFee, `${path}/@ChangeFeeInd`);
  const refundable = attr(node, 'RefundableInd');
  if (refundable !== undefined) p.refundable = decodeBoolean(refundable, `${path}/@RefundableInd`);
  const details = opt(node, 'Details');
  const list = details === undefined ? [] : many(details, 'Detail');
  p.details = list.map((d, i) => {
    const dp = `${path}/Details/Detail[${i + 1}]`;
    const detail: PenaltyDetail = { type: reqText(d, 'Type', dp) };
    const amounts = opt(d, 'Amounts');
    const values = amounts === undefined ? [] : many(amounts, 'Amount');
    const j = values.findIndex((a) => opt(a, 'CurrencyAmountValue') !== undefined);
    if (j >= 0)
      detail.amount = decodeMoney(
        one(values[j], 'CurrencyAmountValue', dp),
        `${dp}/Amounts/Amount[${j + 1}]/CurrencyAmountValue`,
      );
    return detail;
  });
  return p;
}

function decodeBaggageAllowance(node: XNode, path: string): BaggageAllowance {
  const b: BaggageAllowance = {
    baggageAllowanceId: reqAttr(node, 'BaggageAllowanceID', path),
    category: reqText(node, 'BaggageCategory', path),
  };
  const pa = opt(node, 'PieceAllowance');
  if (pa !== undefined) {
    const p = `${path}/PieceAllowance`;
    b.pieceAllowance = {
      applicableParty: reqText(pa, 'ApplicableParty', p),
      totalQuantity: decodeInt(optText(pa, 'TotalQuantity'), `${p}/TotalQuantity`),
      measurements: many(pa, 'PieceMeasurements').map((m, i) =>
        decodePieceMeasurement(m, `${p}/PieceMeasurements[${i + 1}]`),
      ),
    };
  }
  return b;
}

function decodePieceMeasurement(node: XNode, path: string): PieceMeasurement {
  const m: PieceMeasurement = { quantity: decodeInt(attr(node, 'Quantity'), `${path}/@Quantity`) };
  const w = opt(node, 'PieceWeightAllowance');
  if (w !== undefined) {
    const wp = `${path}/PieceWeightAllowance`;
    const mw = opt(w, 'MaximumWeight');
    if (mw !== undefined) {
      const mp = `${wp}/MaximumWeight`;
      m.maximumWeight = { value: decodeDecimal(reqText(mw, 'Value', mp), `${mp}/Value`), uom: reqText(mw, 'UOM', mp) };
    }
    const bag = optText(w, 'ApplicableBag');
    if (bag !== undefined) m.applicableBag = bag;
  }
  return m;
}

/** A `Departure` or `Arrival`: `Date` (but a departure's, see {@link decodeDeparture}) and `Time` are optional. */
function decodeLocation(node: XNode, path: string): Location {
  const l: Location = { airportCode: reqText(node, 'AirportCode', path) };
  const date = optValue(node, 'Date');
  if (date !== undefined) l.date = date;
  const time = optValue(node, 'Time');
  if (time !== undefined) l.time = time;
  const name = optText(node, 'AirportName');
  if (name !== undefined) l.airportName = name;
  const refs = decodeRefs(attr(node, 'refs'));
  if (refs.length) l.refs = refs;
  return l;
}

function decodeDeparture(node: XNode, path: string): DepartureLocation {
  return { ...decodeLocation(node, path), date: reqText(node, 'Date', path) };
}

function decodeCarrier(node: XNode, path: string): Carrier {
  const c: Carrier = { airlineId: reqText(node, 'AirlineID', path), flightNumber: reqText(node, 'FlightNumber', path) };
  const name = optText(node, 'Name');
  if (name !== undefined) c.name = name;
  return c;
}

function decodeOperatingCarrier(node: XNode): OperatingCarrier {
  const c: OperatingCarrier = {};
  const airline = optValue(node, 'AirlineID');
  if (airline !== undefined) c.airlineId = airline;
  const number = optText(node, 'FlightNumber');
  if (number !== undefined) c.flightNumber = number;
  const name = optText(node, 'Name');
  if (name !== undefined) c.name = name;
  return c;
}

function decodeFlightSegment(node: XNode, path: string): FlightSegment {
  const s: FlightSegment = {
    segmentKey: reqAttr(node, 'SegmentKey', path),
    departure: decodeDeparture(one(node, 'Departure', path), `${path}/Departure`),
    arrival: decodeLocation(one(node, 'Arrival', path), `${path}/Arrival`),
    marketingCarrier: decodeCarrier(one(node, 'MarketingCarrier', path), `${path}/MarketingCarrier`),
  };
  const op = opt(node, 'OperatingCarrier');
  if (op !== undefined) s.operatingCarrier = decodeOperatingCarrier(op);
  const eq = opt(node, 'Equipment');
  if (eq !== undefined) s.aircraftCode = reqText(eq, 'AircraftCode', `${path}/Equipment`);
  const cos = opt(node, 'ClassOfService');
  if (cos !== undefined) s.classOfService = reqText(cos, 'Code', `${path}/ClassOfService`);
  const fd = opt(node, 'FlightDetail');
  const dur = fd === undefined ? undefined : opt(fd, 'FlightDuration');
  if (dur !== undefined) s.duration = reqText(dur, 'Value', `${path}/FlightDetail/FlightDuration`);
  return s;
}

function decodeFlight(node: XNode, path: string): Flight {
  const f: Flight = { segmentRefs: decodeRefs(text(one(node, 'SegmentReferences', path))) };
  const key = attr(node, 'FlightKey');
  if (key !== undefined && key !== '') f.flightKey = key;
  const j = opt(node, 'Journey');
  const time = j === undefined ? undefined : optText(j, 'Time');
  if (time !== undefined) f.journeyTime = time;
  return f;
}

function decodeOriginDestination(node: XNode, path: string): OriginDestination {
  const od: OriginDestination = {
    departureCode: reqText(node, 'DepartureCode', path),
    arrivalCode: reqText(node, 'ArrivalCode', path),
  };
  const key = attr(node, 'OriginDestinationKey');
  if (key !== undefined && key !== '') od.originDestinationKey = key;
  const refs = decodeRefs(optText(node, 'FlightReferences'));
  if (refs.length) od.flightRefs = refs;
  return od;
}

function decodePriceClass(node: XNode, path: string): PriceClass {
  const pc: PriceClass = { name: reqText(node, 'Name', path) };
  const id = attr(node, 'PriceClassID');
  if (id !== undefined && id !== '') pc.priceClassId = id;
  const code = optText(node, 'Code');
  if (code !== undefined) pc.code = code;
  const cos = many(node, 'ClassOfService');
  if (cos.length) {
    pc.classesOfService = cos.map((c, i) => {
      const p = `${path}/ClassOfService[${i + 1}]`;
      const codeEl = one(c, 'Code', p);
      const out: ClassOfService = { code: text(codeEl) };
      if (out.code === '') throw new NdcDecodeError('MISSING', `${p}/Code`, 'element Code is empty');
      const segs = decodeRefs(attr(c, 'refs'));
      if (segs.length) out.segmentRefs = segs;
      const seats = attr(codeEl, 'SeatsLeft');
      if (seats !== undefined) out.seatsLeft = decodeInt(seats, `${p}/Code/@SeatsLeft`);
      return out;
    });
  }
  return pc;
}

function decodeServiceDefinition(node: XNode, path: string): ServiceDefinition {
  const sd: ServiceDefinition = {
    serviceDefinitionId: reqAttr(node, 'ServiceDefinitionID', path),
    name: reqText(node, 'Name', path),
    descriptions: [],
  };
  const enc = opt(node, 'Encoding');
  const code = enc === undefined ? undefined : optText(enc, 'Code');
  if (code !== undefined) sd.encodingCode = code;
  const ds = opt(node, 'Descriptions');
  sd.descriptions = ds === undefined ? [] : many(ds, 'Description').map((d) => optText(d, 'Text') ?? '');
  const bundle = opt(node, 'ServiceBundle');
  if (bundle !== undefined) sd.bundleRefs = many(bundle, 'ServiceDefinitionRef').map(text);
  const bag = optText(node, 'BaggageAllowanceRef');
  if (bag !== undefined) sd.baggageAllowanceRef = bag;
  return sd;
}

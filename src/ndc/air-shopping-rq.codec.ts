/**
 * AirShoppingRQ: calendar search (CoreQuery/Affinity with LeadDatePeriod) and
 * day search (CoreQuery/OriginDestinations), with Qualifier and PassengerList.
 */
import type { AirShoppingRq, CalendarOriginDestination, CoreQuery, DayOriginDestination } from './ndc.model';
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
  attr,
  endMessage,
  many,
  one,
  opt,
  optText,
  parseNdc,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
} from './xml';

const ROOT = 'AirShoppingRQ';

/** Serialises an AirShoppingRQ (valid against AirShoppingRQ.xsd). */
export function encodeAirShoppingRq(rq: AirShoppingRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  if (rq.parameters !== undefined) encodeParameters(root, rq.parameters);
  const cq = rq.coreQuery;
  if (cq === undefined) throw new Error('AirShoppingRQ: coreQuery is required to encode');
  encodeCoreQuery(addEl(root, 'CoreQuery'), cq);
  if (rq.qualifier !== undefined) encodeQualifier(root, rq.qualifier);
  if (rq.passengers.length > 0) encodePassengerList(addEl(root, 'DataLists'), rq.passengers);
  return endMessage(root);
}

/** Parses and decodes an AirShoppingRQ; throws {@link NdcDecodeError}. */
export function decodeAirShoppingRq(xml: string | Buffer, opts?: ParseOptions): AirShoppingRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const rq: AirShoppingRq = { ...decodeRequestCommon(node, path), passengers: [] };
  const coreQuery = decodeCoreQuery(one(node, 'CoreQuery', path), `${path}/CoreQuery`);
  if (coreQuery !== undefined) rq.coreQuery = coreQuery;
  const qualifier = opt(node, 'Qualifier');
  if (qualifier !== undefined) rq.qualifier = decodeQualifier(qualifier, `${path}/Qualifier`);
  const lists = opt(node, 'DataLists');
  const paxList = lists === undefined ? undefined : opt(lists, 'PassengerList');
  if (paxList !== undefined) rq.passengers = decodePassengerList(paxList, `${path}/DataLists/PassengerList`);
  return rq;
}

/**
 * Writes the journey of `cq` into `parent` (AirShoppingRQ `CoreQuery`, OrderReshopRQ
 * `Add/FlightQuery`): `Affinity/OriginDestination` per direction for a calendar query (airport,
 * date, `LeadPricing/LeadDatePeriod`), else `OriginDestinations/OriginDestination` (departure
 * airport and date, arrival airport).
 */
export function encodeCoreQuery(parent: XMLBuilder, cq: CoreQuery): void {
  if (cq.kind === 'calendar') {
    const aff = addEl(parent, 'Affinity');
    for (const od of cq.originDestinations) {
      const el = addEl(aff, 'OriginDestination');
      const dep = addEl(el, 'AirportCityDeparture');
      addEl(dep, 'LocationCode', od.departureCode);
      addEl(dep, 'Date', od.date);
      addEl(addEl(dep, 'LeadPricing'), 'LeadDatePeriod')
        .att('After', daysToDuration(od.daysAfter))
        .att('Before', daysToDuration(od.daysBefore));
      addEl(addEl(el, 'AirportCityArrival'), 'LocationCode', od.arrivalCode);
    }
    return;
  }
  const ods = addEl(parent, 'OriginDestinations');
  for (const od of cq.originDestinations) {
    const el = addEl(ods, 'OriginDestination');
    const dep = addEl(el, 'Departure');
    addEl(dep, 'AirportCode', od.departureCode);
    addEl(dep, 'Date', od.date);
    addEl(addEl(el, 'Arrival'), 'AirportCode', od.arrivalCode);
  }
}

/**
 * The CoreQuery (or a FlightQuery of the same shape) in one of the two shapes we model, or
 * undefined for another shape the XSD allows (FlightSpecific, ShoppingResponseIDs, an
 * origin/destination without departure or arrival airport or date).
 */
export function decodeCoreQuery(node: XNode, path: string): CoreQuery | undefined {
  const affinity = opt(node, 'Affinity');
  if (affinity !== undefined) {
    const p = `${path}/Affinity`;
    const ods = many(affinity, 'OriginDestination').map((od, i) =>
      decodeCalendarOd(od, `${p}/OriginDestination[${i + 1}]`),
    );
    return ods.length > 0 && ods.every(isDefined)
      ? { kind: 'calendar', originDestinations: ods as CalendarOriginDestination[] }
      : undefined;
  }
  const list = opt(node, 'OriginDestinations');
  if (list !== undefined) {
    const p = `${path}/OriginDestinations`;
    const ods = many(list, 'OriginDestination').map((od, i) => decodeDayOd(od, `${p}/OriginDestination[${i + 1}]`));
    return ods.length > 0 && ods.every(isDefined)
      ? { kind: 'day', originDestinations: ods as DayOriginDestination[] }
      : undefined;
  }
  return undefined;
}

function isDefined<T>(x: T | undefined): x is T {
  return x !== undefined;
}

/** Non-empty text of `node/name`, or undefined. */
function present(node: XNode | undefined, name: string): string | undefined {
  const t = node === undefined ? undefined : optText(node, name);
  return t === '' ? undefined : t;
}

function decodeCalendarOd(node: XNode, path: string): CalendarOriginDestination | undefined {
  const depPath = `${path}/AirportCityDeparture`;
  const dep = opt(node, 'AirportCityDeparture');
  const arr = opt(node, 'AirportCityArrival');
  const departureCode = present(dep, 'LocationCode');
  const date = present(dep, 'Date');
  const arrivalCode = present(arr, 'LocationCode');
  if (dep === undefined || departureCode === undefined || date === undefined || arrivalCode === undefined)
    return undefined;
  const period = opt(opt(dep, 'LeadPricing') ?? '', 'LeadDatePeriod');
  const periodPath = `${depPath}/LeadPricing/LeadDatePeriod`;
  return {
    departureCode,
    date: decodeDate(date, `${depPath}/Date`),
    daysAfter: period === undefined ? 0 : durationToDays(attr(period, 'After'), `${periodPath}/@After`),
    daysBefore: period === undefined ? 0 : durationToDays(attr(period, 'Before'), `${periodPath}/@Before`),
    arrivalCode,
  };
}

function decodeDayOd(node: XNode, path: string): DayOriginDestination | undefined {
  const dep = opt(node, 'Departure');
  const departureCode = present(dep, 'AirportCode');
  const date = present(dep, 'Date');
  const arrivalCode = present(opt(node, 'Arrival'), 'AirportCode');
  if (departureCode === undefined || date === undefined || arrivalCode === undefined) return undefined;
  return { departureCode, date: decodeDate(date, `${path}/Departure/Date`), arrivalCode };
}

function decodeDate(s: string, path: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s))
    throw new NdcDecodeError('INVALID_VALUE', path, `not a YYYY-MM-DD date: ${JSON.stringify(s)}`);
  return s;
}

/** `3` -> `P3D`. */
function daysToDuration(days: number): string {
  if (!Number.isInteger(days) || days < 0)
    throw new Error(`LeadDatePeriod days must be a non-negative integer, got ${days}`);
  return `P${days}D`;
}

/** `P3D` -> 3; an absent attribute means 0. */
function durationToDays(s: string | undefined, path: string): number {
  if (s === undefined) return 0;
  const m = /^P(\d{1,4})D$/.exec(s);
  if (!m)
    throw new NdcDecodeError('INVALID_VALUE', path, `expected a duration in days (P<n>D), got ${JSON.stringify(s)}`);
  return Number(m[1]);
}

/**
 * Builds the NDC DataLists and Metadata of a response from the journeys,
 * price classes and services it mentions, so that every reference in the
 * offers points at an entry (and no list carries unreferenced noise).
 */
import type {
  BaggageAllowance,
  ClassOfService,
  DataLists,
  FlightSegment,
  Metadata,
  OriginDestination,
  Passenger,
  ServiceDefinition,
} from '../../ndc/ndc.model';
import type { World } from './world';
import type { DatedSegment, Journey } from './world.types';

export const odKey = (from: string, to: string): string => `OD__${from}_${to}`;
export const priceClassId = (code: string): string => `PC__${code}`;
export const serviceDefinitionId = (code: string): string => `SD__${code}`;
export const countryKey = (code: string): string => `CTRY__${code}`;
export const cityKey = (code: string): string => `CITY__${code}`;
export const JOURNEY_DIRECT = 'JOURNEY__DIRECT';
export const JOURNEY_TRANSFER = 'JOURNEY__TRANSFER';
export const journeyKey = (transfer: boolean): string => (transfer ? JOURNEY_TRANSFER : JOURNEY_DIRECT);

export class ListsBuilder {
  private readonly ods = new Map<string, OriginDestination>();
  private readonly segments = new Map<string, { segment: DatedSegment; classOfService?: string }>();
  private readonly flights = new Map<string, Journey>();
  private readonly classes = new Map<string, Map<string, ClassOfService>>();
  private readonly services = new Set<string>();
  private readonly journeyKinds = new Set<boolean>();
  private readonly airports = new Set<string>();

  constructor(private readonly world: World) {}

  /** An OriginDestination (without flights yet). */
  addOriginDestination(from: string, to: string): string {
    const key = odKey(from, to);
    if (!this.ods.has(key)) this.ods.set(key, { originDestinationKey: key, departureCode: from, arrivalCode: to });
    for (const a of [...this.world.airportsFor(from), ...this.world.airportsFor(to)]) this.airports.add(a);
    return key;
  }

  /** The JOURNEYS metadata entry for a direct or transfer journey; returns its key. */
  addJourneyKind(transfer: boolean): string {
    this.journeyKinds.add(transfer);
    return journeyKey(transfer);
  }

  /** A journey under an OriginDestination, with its segments; `rbds` (OfferPriceRS) sets ClassOfService per segment. */
  addJourney(odKeyValue: string, journey: Journey, rbds?: string[]): void {
    const od = this.ods.get(odKeyValue);
    if (!od) throw new Error(`unknown OD ${odKeyValue}`);
    od.flightRefs = [...new Set([...(od.flightRefs ?? []), journey.flightKey])];
    this.flights.set(journey.flightKey, journey);
    this.addJourneyKind(journey.transfer);
    journey.segments.forEach((s, i) => {
      const prior = this.segments.get(s.segmentKey);
      this.segments.set(s.segmentKey, { segment: s, classOfService: rbds?.[i] ?? prior?.classOfService });
      this.airports.add(s.flight.from);
      this.airports.add(s.flight.to);
    });
  }

  /** A price class, optionally with the booking class offered on a segment and its seats left. */
  addPriceClass(code: string, cos?: ClassOfService): string {
    let entries = this.classes.get(code);
    if (!entries) this.classes.set(code, (entries = new Map()));
    if (cos) entries.set(`${cos.segmentRefs?.join(' ')}/${cos.code}`, cos);
    return priceClassId(code);
  }

  /** A service definition and, recursively, what it bundles; returns its id. */
  addService(code: string): string {
    const def = this.world.serviceDefinition(code);
    if (!def) throw new Error(`unknown service definition ${code}`);
    this.services.add(code);
    for (const inner of def.bundle ?? []) this.addService(inner);
    return serviceDefinitionId(code);
  }

  dataLists(passengers?: Passenger[]): DataLists {
    const lists: DataLists = {};
    if (passengers && passengers.length) lists.passengers = passengers;
    const serviceDefs = this.world.data.serviceDefinitions.filter((d) => this.services.has(d.code));
    const allowanceIds = new Set(serviceDefs.map((d) => d.baggageAllowance).filter((x): x is string => !!x));
    if (allowanceIds.size) {
      lists.baggageAllowances = this.world.data.baggageAllowances
        .filter((b) => allowanceIds.has(b.id))
        .map((b): BaggageAllowance => ({
          baggageAllowanceId: b.id,
          category: b.category,
          pieceAllowance: {
            applicableParty: b.applicableParty,
            totalQuantity: b.totalQuantity,
            measurements: b.pieces.map((p) => ({
              quantity: p.quantity,
              maximumWeight: { value: p.maxWeight, uom: p.uom },
              applicableBag: p.bag,
            })),
          },
        }));
    }
    if (this.segments.size) {
      lists.flightSegments = [...this.segments.values()].map(({ segment, classOfService }) =>
        this.flightSegment(segment, classOfService),
      );
      lists.flights = [...this.flights.values()].map((j) => ({
        flightKey: j.flightKey,
        journeyTime: j.journeyTime,
        segmentRefs: j.segments.map((s) => s.segmentKey),
      }));
    }
    if (this.ods.size) lists.originDestinations = [...this.ods.values()];
    if (this.classes.size) {
      lists.priceClasses = this.world.priceClasses
        .filter((pc) => this.classes.has(pc.code))
        .map((pc) => {
          const cos = [...(this.classes.get(pc.code)?.values() ?? [])];
          return {
            priceClassId: priceClassId(pc.code),
            name: pc.name,
            code: pc.code,
            ...(cos.length ? { classesOfService: cos } : {}),
          };
        });
    }
    if (serviceDefs.length) {
      lists.serviceDefinitions = serviceDefs.map((d): ServiceDefinition => ({
        serviceDefinitionId: serviceDefinitionId(d.code),
        name: d.name,
        encodingCode: d.encoding,
        descriptions: [d.description],
        ...(d.bundle ? { bundleRefs: d.bundle.map(serviceDefinitionId) } : {}),
        ...(d.baggageAllowance ? { baggageAllowanceRef: d.baggageAllowance } : {}),
      }));
    }
    return lists;
  }

  metadata(): Metadata {
    const cityCodes = new Set<string>();
    const countryCodes = new Set<string>();
    for (const a of this.airports) {
      const city = this.world.city(this.world.airport(a)!.city)!;
      cityCodes.add(city.code);
      countryCodes.add(city.country);
    }
    const meta: Metadata = {};
    if (this.journeyKinds.size) {
      meta.journeys = [false, true]
        .filter((t) => this.journeyKinds.has(t))
        .map((transfer) => ({ key: journeyKey(transfer), transfer }));
    }
    meta.languages = this.world.data.languages.map((l) => ({
      key: `LANG__${l.code}`,
      codeIso: l.code,
      codeNls: l.nls,
      name: l.name,
    }));
    meta.countries = this.world.data.countries
      .filter((c) => countryCodes.has(c.code))
      .map((c) => ({ key: countryKey(c.code), icaoCode: c.icao, name: c.name }));
    meta.cities = this.world.data.cities
      .filter((c) => cityCodes.has(c.code))
      .map((c) => ({ key: cityKey(c.code), code: c.code, name: c.name }));
    return meta;
  }

  private flightSegment(s: DatedSegment, classOfService?: string): FlightSegment {
    const carrier = { airlineId: this.world.airlineCode, flightNumber: s.flight.number };
    return {
      segmentKey: s.segmentKey,
      departure: this.location(s.flight.from, s.departureDate, s.flight.departure),
      arrival: this.location(s.flight.to, s.arrivalDate, s.flight.arrival),
      marketingCarrier: carrier,
      operatingCarrier: { ...carrier },
      aircraftCode: s.flight.aircraft,
      duration: s.flight.duration,
      ...(classOfService ? { classOfService } : {}),
    };
  }

  private location(code: string, date: string, time: string) {
    const airport = this.world.airport(code)!;
    const city = this.world.city(airport.city)!;
    return {
      airportCode: code,
      date,
      time,
      airportName: airport.name,
      refs: [countryKey(city.country), cityKey(city.code)],
    };
  }
}

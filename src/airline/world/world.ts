/**
 * The airline's world: airports, schedule, price classes, fares and rules,
 * loaded from a readable data file and turned into dated journeys. Deterministic:
 * which flights exist on a date depends only on that date, on "today" of the
 * service clock (passed in by the caller) and on the schedule changes the
 * airline made since (`withSchedule`: a retimed flight leaves later, a cancelled
 * one is neither offered nor sold).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, compactDate, daysBetween, isIsoDate, localInstant, shiftTime } from './world.dates';
import { BASE_WORLD_SEED, worldForSeed } from './world.variant';
import type {
  DatedSegment,
  FlightChange,
  Journey,
  ScheduleChanges,
  WorldAirport,
  WorldCity,
  WorldCountry,
  WorldData,
  WorldFlight,
  WorldPriceClass,
  WorldServiceDefinition,
} from './world.types';

/** `data/airline/world.json` of the repository. */
export const DEFAULT_WORLD_PATH = join(__dirname, '..', '..', '..', 'data', 'airline', 'world.json');

/** Thrown when the world data file is inconsistent. */
export class WorldDataError extends Error {
  readonly code = 'WORLD_DATA_INVALID';
}

export class World {
  private readonly airports = new Map<string, WorldAirport>();
  private readonly cities = new Map<string, WorldCity>();
  private readonly countries = new Map<string, WorldCountry>();
  private readonly flights = new Map<string, WorldFlight>();
  private readonly classes = new Map<string, WorldPriceClass>();
  private readonly rbdIndex = new Map<string, { priceClass: WorldPriceClass; index: number }>();
  private readonly services = new Map<string, WorldServiceDefinition>();

  /**
   * @param data the parsed world file
   * @param airlineCode the two-character designator used as owner, carrier and
   *   flight-number prefix (default `ZZ`); comes from configuration.
   * @param schedule the airline's schedule changes (default none: the file's schedule).
   */
  constructor(
    readonly data: WorldData,
    readonly airlineCode = 'ZZ',
    private readonly schedule?: ScheduleChanges,
  ) {
    for (const a of data.airports) this.airports.set(a.code, a);
    for (const c of data.cities) this.cities.set(c.code, c);
    for (const c of data.countries) this.countries.set(c.code, c);
    for (const f of data.flights) this.flights.set(f.number, f);
    for (const s of data.serviceDefinitions) this.services.set(s.code, s);
    for (const pc of data.priceClasses) {
      this.classes.set(pc.code, pc);
      pc.rbds.forEach((rbd, index) => {
        if (this.rbdIndex.has(rbd)) throw new WorldDataError(`booking class ${rbd} used twice`);
        this.rbdIndex.set(rbd, { priceClass: pc, index });
      });
      if (pc.capacity.length !== pc.rbds.length)
        throw new WorldDataError(`capacity of ${pc.code} does not match its rbds`);
    }
    for (const f of data.flights) {
      for (const pc of data.priceClasses) {
        if (f.fares[pc.code]?.length !== pc.rbds.length)
          throw new WorldDataError(`fares of ${f.number}/${pc.code} do not match its rbds`);
      }
      for (const code of [f.from, f.to])
        if (!this.airports.has(code)) throw new WorldDataError(`unknown airport ${code}`);
    }
    for (const a of data.airports) {
      const city = this.cities.get(a.city);
      if (!city || !this.countries.has(city.country)) throw new WorldDataError(`airport ${a.code} has no city/country`);
    }
  }

  /** This world with the airline's schedule changes applied (the same data and designator). */
  withSchedule(schedule: ScheduleChanges): World {
    return new World(this.data, this.airlineCode, schedule);
  }

  /** The change of flight `number` (without designator) on its scheduled `date`, if any. */
  changeOf(number: string, date: string): FlightChange | undefined {
    return this.schedule?.changeOf(number, date);
  }

  airport(code: string): WorldAirport | undefined {
    return this.airports.get(code);
  }

  city(code: string): WorldCity | undefined {
    return this.cities.get(code);
  }

  country(code: string): WorldCountry | undefined {
    return this.countries.get(code);
  }

  /** Country code (ISO alpha-2) of an airport. */
  countryOfAirport(code: string): string {
    const a = this.airports.get(code);
    const c = a && this.cities.get(a.city);
    if (!c) throw new WorldDataError(`unknown airport ${code}`);
    return c.country;
  }

  /** The airports a location code stands for: the airport itself, or every airport of a city code. */
  airportsFor(code: string): string[] {
    if (this.airports.has(code)) return [code];
    return this.data.airports.filter((a) => a.city === code).map((a) => a.code);
  }

  priceClass(code: string): WorldPriceClass | undefined {
    return this.classes.get(code);
  }

  get priceClasses(): WorldPriceClass[] {
    return this.data.priceClasses;
  }

  serviceDefinition(code: string): WorldServiceDefinition | undefined {
    return this.services.get(code);
  }

  /** Seat capacity of booking class `rbd` on the flight of `inventoryKey` (0 when unknown or cancelled). */
  capacity(inventoryKey: string, rbd: string): number {
    const entry = this.rbdIndex.get(rbd);
    const [, number, date] = /^[A-Z0-9]{2}(\d+)\/(.*)$/.exec(inventoryKey) ?? [];
    if (!entry || !number || !this.flights.has(number)) return 0;
    if (this.changeOf(number, date!)?.kind === 'cancelled') return 0;
    return entry.priceClass.capacity[entry.index];
  }

  /** Bound capacity function, as `InventoryStore.sellAll` wants it. */
  readonly capacityOf = (inventoryKey: string, rbd: string): number => this.capacity(inventoryKey, rbd);

  /** True when flights operate on `date`: from `today` to `today + bookingWindowDays - 1`. */
  operatesOn(date: string, today: string): boolean {
    if (!isIsoDate(date)) return false;
    const d = daysBetween(today, date);
    return d >= 0 && d < this.data.bookingWindowDays;
  }

  /**
   * Journeys from `from` to `to` (airport or city codes) departing on `date`:
   * non-stop flights first, then connections; none with a cancelled flight.
   * Empty outside the booking window.
   */
  journeys(from: string, to: string, date: string, today: string): Journey[] {
    if (!this.operatesOn(date, today)) return [];
    const origins = new Set(this.airportsFor(from));
    const destinations = new Set(this.airportsFor(to));
    const out: Journey[] = [];
    for (const f of this.data.flights) {
      if (origins.has(f.from) && destinations.has(f.to)) {
        out.push(this.journey([f], date, f.duration));
      }
    }
    for (const c of this.data.connections) {
      if (origins.has(c.from) && destinations.has(c.to)) {
        out.push(
          this.journey(
            c.flights.map((n) => this.flightOrThrow(n)),
            date,
            c.journeyTime,
          ),
        );
      }
    }
    return out.filter((j) => !j.segments.some((s) => this.changeOf(s.flight.number, date)?.kind === 'cancelled'));
  }

  /** When `segment` departs: its local departure time in its airport's time zone (world.json `timeZone`). */
  departureOf(segment: DatedSegment): Date {
    return localInstant(segment.departureDate, segment.flight.departure, this.airport(segment.flight.from)?.timeZone);
  }

  /** The journey of the given flight numbers on `date` (as stored in shopping records). */
  journeyOf(numbers: string[], date: string): Journey {
    const flights = numbers.map((n) => this.flightOrThrow(n));
    const connection = this.data.connections.find((c) => c.flights.join() === numbers.join());
    return this.journey(flights, date, connection?.journeyTime ?? flights[0].duration);
  }

  private retimed(flight: WorldFlight, date: string): { flight: WorldFlight; days: number } {
    return retimedFlight(flight, this.changeOf(flight.number, date));
  }

  private flightOrThrow(number: string): WorldFlight {
    const f = this.flights.get(number);
    if (!f) throw new WorldDataError(`unknown flight ${number}`);
    return f;
  }

  private journey(flights: WorldFlight[], date: string, journeyTime: string): Journey {
    const segments: DatedSegment[] = flights.map((scheduled) => {
      const flightNumber = `${this.airlineCode}${scheduled.number}`;
      const { flight, days } = this.retimed(scheduled, date);
      const departureDate = addDays(date, days);
      return {
        // Keys keep the scheduled date: they name the flight, whenever it now leaves.
        segmentKey: `SEG__${flightNumber}_${compactDate(date)}`,
        inventoryKey: `${flightNumber}/${date}`,
        flight,
        flightNumber,
        departureDate,
        arrivalDate: addDays(departureDate, flight.arrivalDayOffset),
      };
    });
    return {
      flightKey: `FLT__${segments.map((s) => s.flightNumber).join('_')}_${compactDate(date)}`,
      from: flights[0].from,
      to: flights[flights.length - 1].to,
      date,
      segments,
      transfer: segments.length > 1,
      journeyTime,
    };
  }
}

/**
 * `flight` on `date` as the schedule changes leave it: its times moved by a retime (and the days
 * its departure moved into), else as scheduled.
 */
function retimedFlight(flight: WorldFlight, change: FlightChange | undefined): { flight: WorldFlight; days: number } {
  if (change?.kind !== 'retime' || change.shiftMinutes === 0) return { flight, days: 0 };
  const departure = shiftTime(flight.departure, change.shiftMinutes);
  const arrival = shiftTime(flight.arrival, change.shiftMinutes);
  return {
    flight: {
      ...flight,
      departure: departure.time,
      arrival: arrival.time,
      arrivalDayOffset: flight.arrivalDayOffset + arrival.days - departure.days,
    },
    days: departure.days,
  };
}

/** Builds a World from already parsed data (tests use this with a modified copy). */
export function createWorld(data: WorldData, airlineCode = 'ZZ'): World {
  return new World(data, airlineCode);
}

/**
 * Reads and checks the world file.
 * @param path default `data/airline/world.json` of the repository
 * @param airlineCode default `ZZ`
 * @param seed whose variant of the world (`world.variant.ts`); default `ZZ`, the file itself
 */
export function loadWorld(path: string = DEFAULT_WORLD_PATH, airlineCode = 'ZZ', seed = BASE_WORLD_SEED): World {
  const data = JSON.parse(readFileSync(path, 'utf8')) as WorldData;
  return new World(worldForSeed(data, seed), airlineCode);
}

/**
 * Each embedded airline's own world: the world file describes the base airline (seed `ZZ`); any
 * other seed (by default the airline's designator, `AIRLINE_WORLD_SEED`) derives a world with the
 * same routes at other times and other fares, so that two embedded airlines compete visibly
 * (docs/airline-world.md, "Other airlines"). Pure and deterministic.
 */
import { multiply } from '../../common/decimal';
import type { WorldData, WorldFlight } from './world.types';

/** The seed whose world is the file itself. */
export const BASE_WORLD_SEED = 'ZZ';

/** How a seed changes the world: minutes added to every time, a fare factor per price class. */
export interface WorldVariant {
  /** -60 to +60, in steps of 15 (never across midnight: the file's flights leave 07:00-19:00). */
  shiftMinutes: number;
  /** Price class code -> factor from 0.85 to 1.15, in steps of 0.05. */
  fareFactors: Record<string, string>;
}

/** FNV-1a of the seed: a small, stable hash. */
function hash(seed: string): number {
  let h = 0x811c9dc5;
  for (const char of seed) h = Math.imul(h ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** The variant of `seed` (none for the base seed). */
export function worldVariant(data: Pick<WorldData, 'priceClasses'>, seed: string): WorldVariant {
  if (seed === BASE_WORLD_SEED) return { shiftMinutes: 0, fareFactors: {} };
  const h = hash(seed);
  const fareFactors: Record<string, string> = {};
  data.priceClasses.forEach((pc, i) => {
    const step = ((h >>> (4 + 3 * i)) % 7) - 3;
    fareFactors[pc.code] = (1 + step / 20).toFixed(2);
  });
  return { shiftMinutes: ((h % 9) - 4) * 15, fareFactors };
}

function shift(time: string, minutes: number): string {
  const [hours, mins] = time.split(':').map(Number) as [number, number];
  const total = hours * 60 + mins + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** The world of `seed`: the file's data with its variant applied. */
export function worldForSeed(data: WorldData, seed: string): WorldData {
  const variant = worldVariant(data, seed);
  if (seed === BASE_WORLD_SEED) return data;
  const flight = (f: WorldFlight): WorldFlight => ({
    ...f,
    departure: shift(f.departure, variant.shiftMinutes),
    arrival: shift(f.arrival, variant.shiftMinutes),
    fares: Object.fromEntries(
      Object.entries(f.fares).map(([code, fares]) => [
        code,
        fares.map((fare) => multiply(fare, variant.fareFactors[code] ?? '1', 2)),
      ]),
    ),
  });
  return { ...data, flights: data.flights.map(flight) };
}

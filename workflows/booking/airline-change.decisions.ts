/**
 * Changes the airline makes, decided purely (docs/orchestrator.md, "Changes the airline makes"):
 * what changed between the order the booking holds and the one the airline now shows, and whether
 * the agency's policy accepts it without a person. Each with its unit test beside it.
 */
import type { OrderFlight, OrderSummary } from '../../src/booking/servicing.model';

/** What the airline did to the order. */
export type AirlineChangeKind =
  /** Nothing the booking shows: same flights, times and status. */
  | 'none'
  /** The same flights at other times. */
  | 'retime'
  /** The travellers moved to other flights (a flight cancelled, a protected alternative). */
  | 'reroute'
  /** The airline cancelled the order. */
  | 'cancelled';

/** Least time between arriving and leaving again at a connecting airport (local times of the same airport). */
export const MIN_CONNECTION_MINUTES = 45;

const MINUTE_MS = 60_000;

/** Minutes between two local times `YYYY-MM-DDTHH:MM` (of the same airport, or compared as written). */
function minutesBetween(from: string, to: string): number {
  return (Date.parse(`${to}:00Z`) - Date.parse(`${from}:00Z`)) / MINUTE_MS;
}

/** What changed from `before` to `after`, and by how many minutes at most when only times moved. */
export function airlineChangeOf(
  before: Pick<OrderSummary, 'flights' | 'status'>,
  after: Pick<OrderSummary, 'flights' | 'status'>,
): { kind: AirlineChangeKind; shiftMinutes?: number } {
  if (after.status !== 'OK' && before.status === 'OK') return { kind: 'cancelled' };
  const was = before.flights ?? [];
  const now = after.flights ?? [];
  const sameFlights = was.length === now.length && was.every((flight, i) => flight.flight === now[i]!.flight);
  if (!sameFlights) return { kind: 'reroute' };
  let shift = 0;
  was.forEach((flight, i) => {
    const moved = now[i]!;
    shift = Math.max(shift, Math.abs(minutesBetween(flight.departure, moved.departure)));
    if (flight.arrival !== undefined && moved.arrival !== undefined)
      shift = Math.max(shift, Math.abs(minutesBetween(flight.arrival, moved.arrival)));
  });
  return shift === 0 ? { kind: 'none' } : { kind: 'retime', shiftMinutes: shift };
}

/**
 * Every connection of `flights` still works: where a segment leaves from the airport the one
 * before it arrived at, within a day, it leaves at least {@link MIN_CONNECTION_MINUTES} after
 * that arrival (a segment without an arrival time is taken as connecting).
 */
export function connectionsValid(flights: readonly OrderFlight[]): boolean {
  return flights.every((next, i) => {
    const prev = flights[i - 1];
    if (prev === undefined || prev.destination !== next.origin || prev.arrival === undefined) return true;
    const gap = minutesBetween(prev.arrival, next.departure);
    return gap >= 24 * 60 || gap >= MIN_CONNECTION_MINUTES;
  });
}

/** The agency's policy for changes the airline makes (intent `airlineChanges`, else the agency's default). */
export interface AirlineChangePolicy {
  autoAccept?: { maxShiftMinutes: number };
}

/** True when the policy settles the change without a person: a retime within the limit that keeps every connection. */
export function policyAccepts(
  policy: AirlineChangePolicy | undefined,
  change: { kind: AirlineChangeKind; shiftMinutes?: number },
  after: Pick<OrderSummary, 'flights'>,
): boolean {
  const limit = policy?.autoAccept?.maxShiftMinutes;
  if (limit === undefined || change.kind !== 'retime') return false;
  return (change.shiftMinutes ?? 0) <= limit && connectionsValid(after.flights ?? []);
}

/**
 * Step `calendar`: the preferred dates, or the cheapest of a calendar search around them
 * (`journey.flexibleDays`) at every airline that answers calendar searches.
 */
import { chooseTravelDates } from './decisions';
import { atEveryAirline, routesOf } from './airlines';
import type { Booking } from './context';

/** The dates the booking shops for. */
export interface Travel {
  departureDate: string;
  returnDate?: string;
}

export async function travelDates(booking: Booking): Promise<Travel> {
  const { ctx, intent } = booking;
  const { journey } = intent;
  const preferred = {
    departureDate: journey.departureDate,
    ...(journey.returnDate !== undefined ? { returnDate: journey.returnDate } : {}),
  };
  const flexibleDays = journey.flexibleDays ?? 0;
  const routes = routesOf(booking).filter((route) => route?.calendarSearch !== false);
  if (flexibleDays <= 0 || routes.length === 0) return preferred;
  const { answers } = await atEveryAirline(
    booking,
    routes,
    'calendar',
    ({ ndc }) =>
      ndc.calendar({ ctx, origin: journey.origin, destination: journey.destination, ...preferred, flexibleDays }),
    { first: true },
  );
  return chooseTravelDates(
    answers.flatMap((answer) => answer.result.prices),
    preferred,
  );
}

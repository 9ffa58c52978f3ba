/**
 * Validation of booking requests at the edge (zod). The intent's shape is
 * `submittedIntentSchema` (src/booking/booking.schemas.ts), the one source of `BookingIntent`;
 * here are the rules that need today's date and the configured airlines, and the schemas of the
 * other booking requests. Messages never contain the submitted values.
 */
import { z } from 'zod/v4';
import { BOOKING_STATUSES, BookingStatus, type PaymentCard, type SubmittedIntent } from '../../booking/booking.model';
import { AGENCY_ID_MESSAGE, AGENCY_ID_RE, submittedIntentSchema } from '../../booking/booking.schemas';
import { isIsoDate, text } from '../../common/zod-fields';
import { validateWith, type ValidationResult } from '../common/validation';

/** The booking statuses (declared once, in `src/booking/booking.status.ts`). */
export { BOOKING_STATUSES };

type Issues = z.RefinementCtx;

/**
 * The intent schema of one day: the submitted shape, and the rules that need `today`
 * (`YYYY-MM-DD`, UTC: the first date a journey may depart on and the bound for birthdates and
 * card expiry; a parameter so tests fix it) and `airlines`, the configured designators an
 * intent's `airlines` may name (default: any).
 */
export function intentSchemaOf(today: string, airlines?: readonly string[]) {
  return submittedIntentSchema.superRefine((intent, ctx) => {
    checkAirlines(intent.airlines, airlines, ctx);
    checkJourney(intent.journey, today, ctx);
    const contactIds = checkContacts(intent.contacts, ctx);
    checkPassengers(intent.passengers, contactIds, today, ctx);
    if (intent.payment.card !== undefined && cardExpired(intent.payment.card, today)) {
      ctx.addIssue({ code: 'custom', path: ['payment', 'card', 'expirationMonth'], message: CARD_EXPIRED });
    }
    checkExtras(intent, ctx);
  });
}

/** Each named airline is configured, and named once. */
function checkAirlines(
  named: readonly string[] | undefined,
  configured: readonly string[] | undefined,
  ctx: Issues,
): void {
  named?.forEach((code, i) => {
    if (named.indexOf(code) !== i) {
      ctx.addIssue({ code: 'custom', path: ['airlines', i], message: `names ${code} twice` });
    } else if (configured !== undefined && /^[A-Z0-9]{2,3}$/.test(code) && !configured.includes(code)) {
      ctx.addIssue({
        code: 'custom',
        path: ['airlines', i],
        message: `${code} is not a configured airline (configured: ${configured.join(', ')})`,
      });
    }
  });
}

/** Somewhere else, not before today, back after the departure. */
function checkJourney(journey: SubmittedIntent['journey'], today: string, ctx: Issues): void {
  if (journey.origin === journey.destination) {
    ctx.addIssue({ code: 'custom', path: ['journey', 'destination'], message: 'must differ from origin' });
  }
  if (isIsoDate(journey.departureDate) && journey.departureDate < today) {
    ctx.addIssue({
      code: 'custom',
      path: ['journey', 'departureDate'],
      message: `must not be before today (${today})`,
    });
  }
  if (
    journey.returnDate !== undefined &&
    isIsoDate(journey.returnDate) &&
    isIsoDate(journey.departureDate) &&
    journey.returnDate <= journey.departureDate
  ) {
    ctx.addIssue({ code: 'custom', path: ['journey', 'returnDate'], message: 'must be after departureDate' });
  }
}

/** Distinct ids, each contact reachable; returns the ids. */
function checkContacts(contacts: SubmittedIntent['contacts'], ctx: Issues): Set<string> {
  const ids = new Set<string>();
  contacts.forEach((c, i) => {
    if (ids.has(c.id))
      ctx.addIssue({ code: 'custom', path: ['contacts', i, 'id'], message: 'is a duplicate contact id' });
    ids.add(c.id);
    if (c.emails.length === 0 && c.phones.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['contacts', i, 'emails'],
        message: 'a contact needs an e-mail address or a phone',
      });
    }
  });
  return ids;
}

/** Each passenger names a contact and is born; an adult among them, no more infants than adults. */
function checkPassengers(
  passengers: SubmittedIntent['passengers'],
  contactIds: ReadonlySet<string>,
  today: string,
  ctx: Issues,
): void {
  let adults = 0;
  let infants = 0;
  passengers.forEach((p, i) => {
    if (p.type === 'ADT') adults += 1;
    if (p.type === 'INF') infants += 1;
    if (!contactIds.has(p.contactId)) {
      ctx.addIssue({
        code: 'custom',
        path: ['passengers', i, 'contactId'],
        message: 'must be the id of one of the contacts',
      });
    }
    if (isIsoDate(p.birthdate) && p.birthdate > today) {
      ctx.addIssue({ code: 'custom', path: ['passengers', i, 'birthdate'], message: 'must not be in the future' });
    }
  });
  if (adults === 0) ctx.addIssue({ code: 'custom', path: ['passengers'], message: 'must include at least one ADT' });
  if (infants > adults)
    ctx.addIssue({ code: 'custom', path: ['passengers'], message: 'must not have more INF than ADT' });
}

/** The message of an expired card (at `<card>.expirationMonth`). */
export const CARD_EXPIRED = 'card has expired';

/** True when the card expired before the month of `today` (`YYYY-MM-DD`). */
export function cardExpired(card: Pick<PaymentCard, 'expirationYear' | 'expirationMonth'>, today: string): boolean {
  const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
  return card.expirationYear < thisYear || (card.expirationYear === thisYear && card.expirationMonth < thisMonth);
}

/** Extras naming passengers or a return the intent does not have. */
function checkExtras(intent: SubmittedIntent, ctx: Issues): void {
  intent.extras?.bags?.forEach((bag, i) => {
    if (bag.passenger >= intent.passengers.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['extras', 'bags', i, 'passenger'],
        message: `must be the index of one of the ${intent.passengers.length} passengers`,
      });
    }
    if (bag.direction === 'return' && intent.journey.returnDate === undefined) {
      ctx.addIssue({ code: 'custom', path: ['extras', 'bags', i, 'direction'], message: 'the journey has no return' });
    }
  });
}

/** Today's date in UTC, `YYYY-MM-DD`. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Largest number of intents in one batch. */
export const MAX_BATCH_SIZE = 500;

function batchSchemaOf(intent: ReturnType<typeof intentSchemaOf>) {
  return z
    .array(intent, { message: 'must be a JSON array of booking intents' })
    .min(1, 'must contain at least one intent')
    .max(MAX_BATCH_SIZE, `must contain at most ${MAX_BATCH_SIZE} intents`);
}

/**
 * Validates intents against the schema of one day, built once per date: building a zod schema
 * costs far more than using it (building it per request was most of the API's CPU per intent,
 * bench/README.md, "saga"). The controllers hold one each.
 */
export class IntentValidator {
  /** `airlines`: the configured designators (default: any designator is accepted). */
  constructor(private readonly airlines?: readonly string[]) {}

  private day?: {
    today: string;
    intent: ReturnType<typeof intentSchemaOf>;
    batch: ReturnType<typeof batchSchemaOf>;
  };

  /** Validates one intent; on failure lists every bad field (never their values). */
  intent(body: unknown, today: string): ValidationResult<SubmittedIntent> {
    return validateWith(this.schemas(today).intent, body);
  }

  /** Validates a batch: a non-empty array of intents; paths start with the index (`[3].currency`). */
  batch(body: unknown, today: string): ValidationResult<SubmittedIntent[]> {
    return validateWith(this.schemas(today).batch, body);
  }

  private schemas(today: string) {
    if (this.day?.today !== today) {
      const intent = intentSchemaOf(today, this.airlines);
      this.day = { today, intent, batch: batchSchemaOf(intent) };
    }
    return this.day;
  }
}

/** Validates one intent (builds the day's schema: callers that validate many hold an {@link IntentValidator}). */
export function validateIntent(body: unknown, today: string = utcToday()): ValidationResult<SubmittedIntent> {
  return new IntentValidator().intent(body, today);
}

/** Validates a batch (builds the day's schema, as {@link validateIntent}). */
export function validateBatch(body: unknown, today: string = utcToday()): ValidationResult<SubmittedIntent[]> {
  return new IntentValidator().batch(body, today);
}

/** Query of `GET /bookings`. */
export const bookingListQuerySchema = z.object({
  status: z.enum(BookingStatus, { message: `must be one of ${BOOKING_STATUSES.join(', ')}` }).optional(),
  agencyId: z
    .string()
    .regex(AGENCY_ID_RE, AGENCY_ID_MESSAGE)
    .optional()
    .describe('ops only: one agency (agency callers always see their own)'),
  limit: z.coerce
    .number({ message: 'must be an integer from 1 to 1000' })
    .int('must be an integer from 1 to 1000')
    .min(1, 'must be an integer from 1 to 1000')
    .max(1000, 'must be an integer from 1 to 1000')
    .default(100),
});

export type BookingListQuery = z.infer<typeof bookingListQuerySchema>;

/** Validates the query of `GET /bookings`. */
export function validateListQuery(query: unknown): ValidationResult<BookingListQuery> {
  return validateWith(bookingListQuerySchema, query ?? {});
}

/** `POST /bookings/{id}/seats`: `{ seats: [{ passenger, seat, segment? }] }`. */
export const seatSelectionSchema = z.strictObject({
  seats: z
    .array(
      z.strictObject({
        passenger: z.number({ message: 'must be a passenger index' }).int('must be an integer').min(0),
        seat: z.string().regex(/^\d{1,3}[A-Z]$/, 'must be a seat such as 12A'),
        segment: text(64).optional(),
      }),
    )
    .min(1, 'must choose at least one seat')
    .max(40),
});

export type SeatSelection = z.infer<typeof seatSelectionSchema>;

/** Validates the body of `POST /bookings/{id}/seats`. */
export function validateSeatSelection(body: unknown): ValidationResult<SeatSelection> {
  return validateWith(seatSelectionSchema, body ?? {});
}

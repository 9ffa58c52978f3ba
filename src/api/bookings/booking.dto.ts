/**
 * Validation of booking intents at the edge (zod). The schema mirrors `BookingIntent` in
 * `src/booking/booking.model.ts`; unknown keys are refused so a misspelt field is named in the
 * 400 rather than silently dropped. Messages never contain the submitted values (card data must
 * not be echoed).
 */
import { z } from 'zod/v4';
import { BOOKING_STATUSES, BookingStatus, type BookingIntent } from '../../booking/booking.model';
import { isDecimal } from '../../common/decimal';
import { EXTRA_DIRECTIONS, EXTRA_SERVICE_CODES, SEAT_MODES, SEAT_PREFERENCES } from '../../booking/booking.extras';
import { luhnValid } from '../../common/luhn';

/** One bad field of a rejected request: its path (`passengers[1].birthdate`) and why. */
export interface FieldError {
  path: string;
  message: string;
}

/** Result of validating a request body. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; fields: FieldError[] };

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const isoDate = z.string().refine(isIsoDate, { message: 'must be a valid date YYYY-MM-DD' });
const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const upper = (len: number, what: string) =>
  z.string().regex(new RegExp(`^[A-Z]{${len}}$`), `must be ${what} (${len} capital letters)`);
const absoluteUrl = z
  .string()
  .refine((s) => /^https?:\/\//.test(s) && URL.canParse(s), { message: 'must be an absolute http(s) URL' });

/** Agency ids and idempotency keys go into workflow ids: keep them to a safe alphabet. */
export const AGENCY_ID_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const AGENCY_ID_MESSAGE = 'must be 1 to 64 characters of A-Z a-z 0-9 _ . -';

/** The booking statuses (declared once, in `src/booking/booking.status.ts`). */
export { BOOKING_STATUSES };

const passengerSchema = z.strictObject({
  type: z.enum(['ADT', 'CHD', 'INF'], { message: 'must be ADT, CHD or INF' }),
  title: text(20),
  givenName: text(100),
  surname: text(100),
  birthdate: isoDate,
  contactId: text(64),
});

const contactSchema = z.strictObject({
  id: text(64),
  emails: z.array(z.email({ message: 'must be an e-mail address' })).max(5),
  phones: z
    .array(
      z.strictObject({
        countryDialingCode: z.string().regex(/^\d{1,4}$/, 'must be 1 to 4 digits'),
        number: z.string().regex(/^\d{4,15}$/, 'must be 4 to 15 digits'),
      }),
    )
    .max(5),
});

// Card fields: messages are fixed strings, never derived from the value.
const cardSchema = z.strictObject({
  number: z
    .string({ message: 'must be a string of digits' })
    .refine((s) => /^\d{12,19}$/.test(s), { message: 'must be 12 to 19 digits' })
    .refine(luhnValid, { message: 'is not a valid card number (Luhn check failed)' }),
  name: text(100),
  expirationYear: z.number({ message: 'must be a number' }).int('must be an integer').min(2000).max(2100),
  expirationMonth: z.number({ message: 'must be a number' }).int('must be an integer').min(1).max(12),
  verificationCode: z
    .string({ message: 'must be a string of 3 or 4 digits' })
    .refine((s) => /^\d{3,4}$/.test(s), { message: 'must be 3 or 4 digits' }),
  address: z.strictObject({
    addressLine1: text(100),
    addressLine2: text(100).optional(),
    postalCode: text(20),
    cityName: text(100),
    stateOrProvince: text(100).optional(),
    countryCode: upper(2, 'an ISO 3166 country code'),
  }),
  authentication: z
    .strictObject({
      cavv: z
        .string({ message: 'must be a base64 string' })
        .refine((s) => /^[A-Za-z0-9+/]{4,64}={0,2}$/.test(s), { message: 'must be 4 to 64 base64 characters' }),
      eci: z
        .string({ message: 'must be a two-digit string' })
        .refine((s) => /^\d{2}$/.test(s), { message: 'must be two digits' }),
      transactionId: z.string({ message: 'must be a string' }).refine((s) => /^[A-Za-z0-9._:-]{1,64}$/.test(s), {
        message: 'must be 1 to 64 letters, digits, dots, colons, underscores or dashes',
      }),
    })
    .optional(),
});

const extrasSchema = z.strictObject({
  bags: z
    .array(
      z.strictObject({
        passenger: z.number({ message: 'must be a passenger index' }).int('must be an integer').min(0),
        code: z.enum(EXTRA_SERVICE_CODES, { message: `must be one of ${EXTRA_SERVICE_CODES.join(', ')}` }),
        direction: z.enum(EXTRA_DIRECTIONS, { message: 'must be outbound, return or both' }),
      }),
    )
    .max(40)
    .optional(),
  seats: z
    .strictObject({
      mode: z.enum(SEAT_MODES, { message: 'must be auto or choose' }),
      preference: z.enum(SEAT_PREFERENCES, { message: 'must be window, aisle or any' }).optional(),
      together: z.boolean().optional(),
      maxPricePerSeat: z
        .string({ message: 'must be a decimal string such as "25.00"' })
        .refine((s) => isDecimal(s) && !s.startsWith('-'), { message: 'must be a decimal string such as "25.00"' })
        .optional(),
      required: z.boolean().optional(),
    })
    .optional(),
});

/** Extras naming passengers or a return the intent does not have. */
function checkExtras(intent: z.infer<ReturnType<typeof bookingIntentSchema>>, ctx: z.RefinementCtx): void {
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

/**
 * Builds the intent schema. `today` (`YYYY-MM-DD`, UTC) is the first date a journey may
 * depart on and the bound for birthdates and card expiry; it is a parameter so tests fix it.
 * `airlines`: the configured designators an intent's `airlines` may name (default: any).
 */
export function bookingIntentSchema(today: string, airlines?: readonly string[]) {
  const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
  return z
    .strictObject({
      agency: z.strictObject({
        // Optional: the caller's agency (from the credential) when absent.
        id: z.string().regex(AGENCY_ID_RE, AGENCY_ID_MESSAGE).optional(),
        name: text(100),
      }),
      pointOfSale: upper(2, 'an ISO 3166 country code'),
      currency: upper(3, 'an ISO 4217 currency code'),
      language: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter language code'),
      journey: z.strictObject({
        origin: upper(3, 'an IATA airport code'),
        destination: upper(3, 'an IATA airport code'),
        departureDate: isoDate,
        returnDate: isoDate.optional(),
        flexibleDays: z.number().int('must be an integer').min(0).max(7).optional(),
      }),
      passengers: z.array(passengerSchema).min(1, 'must list at least one passenger').max(9, 'at most 9 passengers'),
      contacts: z.array(contactSchema).min(1, 'must list at least one contact').max(9),
      selection: z
        .strictObject({
          priceClass: z
            .string()
            .regex(/^[A-Z0-9_]{1,20}$/, 'must be a price class code such as ECONOMY')
            .optional(),
          maxTotal: z
            .string({ message: 'must be a decimal string such as "250.00"' })
            .refine((s) => isDecimal(s) && !s.startsWith('-'), { message: 'must be a decimal string such as "250.00"' })
            .optional(),
        })
        .optional(),
      promotionCode: z
        .string()
        .regex(/^[A-Z0-9]{1,20}$/, 'must be 1 to 20 capital letters or digits')
        .optional(),
      corporate: z
        .strictObject({
          airlineId: z.string().regex(/^[A-Z0-9]{2}$/, 'must be a two-character airline designator'),
          account: text(40),
        })
        .optional(),
      airlines: z
        .array(z.string().regex(/^[A-Z0-9]{2,3}$/, 'must be an airline designator such as ZZ'))
        .min(1, 'must name at least one airline (or leave airlines out: every configured one)')
        .max(20)
        .optional(),
      extras: extrasSchema.optional(),
      payment: z.strictObject({ card: cardSchema }),
      securePayment: z.strictObject({
        failUrl: absoluteUrl,
        termUrl: absoluteUrl,
        ipAddress: z.union([z.ipv4(), z.ipv6()], { message: 'must be an IPv4 or IPv6 address' }),
        userAgent: text(500),
      }),
    })
    .superRefine((intent, ctx) => {
      checkAirlines(intent.airlines, airlines, ctx);
      const { journey } = intent;
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
      const contactIds = new Set<string>();
      intent.contacts.forEach((c, i) => {
        if (contactIds.has(c.id))
          ctx.addIssue({ code: 'custom', path: ['contacts', i, 'id'], message: 'is a duplicate contact id' });
        contactIds.add(c.id);
        if (c.emails.length === 0 && c.phones.length === 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['contacts', i, 'emails'],
            message: 'a contact needs an e-mail address or a phone',
          });
        }
      });
      let adults = 0;
      let infants = 0;
      intent.passengers.forEach((p, i) => {
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
      if (adults === 0)
        ctx.addIssue({ code: 'custom', path: ['passengers'], message: 'must include at least one ADT' });
      if (infants > adults)
        ctx.addIssue({ code: 'custom', path: ['passengers'], message: 'must not have more INF than ADT' });
      const card = intent.payment.card;
      if (card.expirationYear < thisYear || (card.expirationYear === thisYear && card.expirationMonth < thisMonth)) {
        ctx.addIssue({ code: 'custom', path: ['payment', 'card', 'expirationMonth'], message: 'card has expired' });
      }
      checkExtras(intent, ctx);
    });
}

/** Each named airline is configured, and named once. */
function checkAirlines(
  named: readonly string[] | undefined,
  configured: readonly string[] | undefined,
  ctx: z.RefinementCtx,
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

/** Renders a zod path as `passengers[1].birthdate`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(body)' : out;
}

function toFieldErrors(error: z.ZodError, prefix: readonly PropertyKey[] = []): FieldError[] {
  return error.issues.map((issue) => ({ path: formatPath([...prefix, ...issue.path]), message: issue.message }));
}

/** Today's date in UTC, `YYYY-MM-DD`. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A valid intent as submitted: `agency.id` may still be missing (the caller's is used then). */
export type SubmittedIntent = Omit<BookingIntent, 'agency'> & { agency: { id?: string; name: string } };

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
    intent: ReturnType<typeof bookingIntentSchema>;
    batch: ReturnType<typeof batchSchema>;
  };

  /** Validates one intent; on failure lists every bad field (never their values). */
  intent(body: unknown, today: string): ValidationResult<SubmittedIntent> {
    const r = this.schemas(today).intent.safeParse(body);
    if (r.success) return { ok: true, value: r.data as SubmittedIntent };
    return { ok: false, fields: toFieldErrors(r.error) };
  }

  /** Validates a batch: a non-empty array of intents; paths start with the index (`[3].currency`). */
  batch(body: unknown, today: string): ValidationResult<SubmittedIntent[]> {
    const r = this.schemas(today).batch.safeParse(body);
    if (r.success) return { ok: true, value: r.data as SubmittedIntent[] };
    return { ok: false, fields: toFieldErrors(r.error) };
  }

  private schemas(today: string) {
    if (this.day?.today !== today) {
      const intent = bookingIntentSchema(today, this.airlines);
      this.day = { today, intent, batch: batchSchema(intent) };
    }
    return this.day;
  }
}

/** Largest number of intents in one batch. */
export const MAX_BATCH_SIZE = 500;

function batchSchema(intent: ReturnType<typeof bookingIntentSchema>) {
  return z
    .array(intent, { message: 'must be a JSON array of booking intents' })
    .min(1, 'must contain at least one intent')
    .max(MAX_BATCH_SIZE, `must contain at most ${MAX_BATCH_SIZE} intents`);
}

/** Validates one intent (builds the day's schema: callers that validate many hold an {@link IntentValidator}). */
export function validateIntent(body: unknown, today: string = utcToday()): ValidationResult<SubmittedIntent> {
  return new IntentValidator().intent(body, today);
}

/** Validates a batch (builds the day's schema, as {@link validateIntent}). */
export function validateBatch(body: unknown, today: string = utcToday()): ValidationResult<SubmittedIntent[]> {
  return new IntentValidator().batch(body, today);
}

/** Idempotency keys: 1 to 100 characters of A-Z a-z 0-9 _ . : - */
export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9_.:-]{1,100}$/;

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
  const r = bookingListQuerySchema.safeParse(query ?? {});
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, fields: toFieldErrors(r.error) };
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

export function validateSeatSelection(body: unknown): ValidationResult<z.infer<typeof seatSelectionSchema>> {
  const r = seatSelectionSchema.safeParse(body ?? {});
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, fields: toFieldErrors(r.error) };
}

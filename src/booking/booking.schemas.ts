/**
 * zod schemas of the booking contract: the one source of its TypeScript types and of the API's
 * OpenAPI schemas.
 *
 * - The booking intent (the request): `booking.model.ts` infers `BookingIntent` and its parts from
 *   {@link bookingIntentSchema}; the API validates a submitted one with
 *   {@link submittedIntentSchema} plus the rules of the day (`src/api/bookings/booking.dto.ts`).
 *   Unknown keys are refused, so a misspelt field is named in the 400 rather than silently
 *   dropped; messages never contain the submitted values (card data must not be echoed).
 * - The booking state and a batch's progress (the answers): `booking.model.ts` infers
 *   `StepRecord`, `BookingError`, `BookingState` and `BatchProgress` from them, and the API derives
 *   its answer schemas from them (`src/api/common/api.schemas.ts`).
 *
 * `booking.model.ts` imports these as types only, so the workflow bundle never loads zod. A field
 * added here appears in the types and in the API document alike.
 */
import { z } from 'zod/v4';
import { paymentCardSchema } from '../common/payment-card';
import { absoluteUrl, amountString, isoDate, text, upper } from '../common/zod-fields';
import { EXTRA_DIRECTIONS, EXTRA_SERVICE_CODES, SEAT_MODES, SEAT_PREFERENCES } from './booking.extras';
import { FailureType } from './booking.failures';
import { BookingStatus } from './booking.status';

/** Agency ids and idempotency keys go into workflow ids: keep them to a safe alphabet. */
export const AGENCY_ID_RE = /^[A-Za-z0-9_.-]{1,64}$/;
/** What {@link AGENCY_ID_RE} asks for, as a validation message. */
export const AGENCY_ID_MESSAGE = 'must be 1 to 64 characters of A-Z a-z 0-9 _ . -';
const agencyId = z.string().regex(AGENCY_ID_RE, AGENCY_ID_MESSAGE);

export const passengerTypeSchema = z.enum(['ADT', 'CHD', 'INF'], { message: 'must be ADT, CHD or INF' });

export const intentPassengerSchema = z.strictObject({
  type: passengerTypeSchema,
  title: text(20),
  givenName: text(100),
  surname: text(100),
  /** YYYY-MM-DD */
  birthdate: isoDate,
  contactId: text(64),
});

export const intentContactSchema = z.strictObject({
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

/**
 * `intent.extras`: bags and other services per passenger and direction, and how seats are chosen
 * (docs/api.md "Extras"). Its type is `BookingExtras` (booking.extras.ts); a spec keeps the two equal.
 */
export const intentExtrasSchema = z.strictObject({
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
      maxPricePerSeat: amountString('25.00').optional(),
      required: z.boolean().optional(),
    })
    .optional(),
});

/**
 * A booking intent as the saga books it (`bookingWorkflow`'s first argument): its agency is
 * settled. A submitted one may leave `agency.id` out ({@link submittedIntentSchema}).
 */
export const bookingIntentSchema = z.strictObject({
  agency: z.strictObject({ id: agencyId, name: text(100) }),
  /** ISO 3166 country of the point of sale. */
  pointOfSale: upper(2, 'an ISO 3166 country code'),
  /** ISO 4217 currency prices are requested in. */
  currency: upper(3, 'an ISO 4217 currency code'),
  /** Language code, e.g. `EN`. */
  language: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter language code'),
  journey: z.strictObject({
    origin: upper(3, 'an IATA airport code'),
    destination: upper(3, 'an IATA airport code'),
    departureDate: isoDate,
    returnDate: isoDate.optional(),
    /** When set, a calendar search of +/- this many days picks the cheapest date first. */
    flexibleDays: z.number().int('must be an integer').min(0).max(7).optional(),
  }),
  passengers: z.array(intentPassengerSchema).min(1, 'must list at least one passenger').max(9, 'at most 9 passengers'),
  contacts: z.array(intentContactSchema).min(1, 'must list at least one contact').max(9),
  selection: z
    .strictObject({
      /** Price class code (e.g. `ECONOMY`, `PLUS`); cheapest offer when absent. */
      priceClass: z
        .string()
        .regex(/^[A-Z0-9_]{1,20}$/, 'must be a price class code such as ECONOMY')
        .optional(),
      /** Decimal string in `currency`; a higher priced total waits for approval. */
      maxTotal: amountString('250.00').optional(),
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
  /**
   * Designators of the airlines to shop at (each configured); default every configured airline.
   * The order breaks ties between equally priced offers.
   */
  airlines: z
    .array(z.string().regex(/^[A-Z0-9]{2,3}$/, 'must be an airline designator such as ZZ'))
    .min(1, 'must name at least one airline (or leave airlines out: every configured one)')
    .max(20)
    .optional(),
  /** Bags, other services and seats to add to the offer (docs/api.md "Extras"). */
  extras: intentExtrasSchema.optional(),
  /**
   * How changes the airline makes to the order are settled (docs/api.md "Changes the airline
   * makes"): `autoAccept.maxShiftMinutes` accepts a retime within that many minutes that keeps
   * every connection; anything else waits for the agency. Default: the agency's configured policy.
   */
  airlineChanges: z
    .strictObject({
      autoAccept: z.strictObject({ maxShiftMinutes: z.number().int('must be an integer').min(0).max(1440) }).optional(),
    })
    .optional(),
  /**
   * The card to pay with, or `{ hold: true }`: the order is made unpaid (status `HELD`) and paid
   * later by `POST /bookings/{id}/payment` before its deadline (docs/api.md "Hold now, pay later").
   */
  payment: z
    .strictObject({
      card: paymentCardSchema.optional(),
      hold: z.literal(true, { message: 'must be true (or give a card)' }).optional(),
    })
    .refine((payment) => (payment.card === undefined) !== (payment.hold === undefined), {
      message: 'give either a card or hold: true',
      // Only when the card itself is valid: a bad card is named by its own fields.
      when: (payload) => payload.issues.length === 0,
    }),
  securePayment: z.strictObject({
    failUrl: absoluteUrl,
    termUrl: absoluteUrl,
    ipAddress: z.union([z.ipv4(), z.ipv6()], { message: 'must be an IPv4 or IPv6 address' }),
    userAgent: text(500),
  }),
});

/**
 * A booking intent as an agency submits it (`POST /bookings`, each of `POST /batches`):
 * `agency.id` may be left out, the caller's agency (from the credential) is used then.
 */
export const submittedIntentSchema = bookingIntentSchema.extend({
  agency: z.strictObject({ id: agencyId.optional(), name: text(100) }),
});

const money = z.object({
  value: z.string().meta({ example: '129.00' }),
  currency: z.string().meta({ example: 'GBP' }),
});

/** Exact decimal amount with its currency. */
export const moneySchema = money;

export const bookingStatusSchema = z.enum(BookingStatus);

export const orderFlightSchema = z.object({
  segmentKey: z.string(),
  flight: z.string().meta({ example: 'ZZ1234' }),
  origin: z.string(),
  destination: z.string(),
  departure: z.string().meta({ description: 'Local date and time, YYYY-MM-DDTHH:MM', example: '2027-03-10T08:30' }),
  arrival: z.string().optional(),
});

export const servicingActionSchema = z.enum([
  'changeOffers',
  'changeTrip',
  'orderServices',
  'orderSeatMap',
  'addServices',
  'cancelQuote',
  'removePassengers',
  'pay',
  'answerAirlineChange',
]);
export const failureTypeSchema = z.enum(FailureType);

export const bookingStepNameSchema = z.enum([
  'calendar',
  'shop',
  'price',
  'tokenise',
  'repriceWithToken',
  'serviceList',
  'seatMap',
  'createOrder',
  'reconcileOrder',
  'retrieveOrder',
  'cancelOrder',
  'customerInput',
  'reshop',
  'quoteRefund',
  'repriceOrder',
  'changeOrder',
  'orderServices',
  'orderSeatMap',
]);

export const stepRecordSchema = z.object({
  name: bookingStepNameSchema,
  airline: z.string().optional().meta({ description: 'The airline the step ran at (bookings routed by airline)' }),
  startedAt: z.string().meta({ format: 'date-time', description: 'Workflow time' }),
  endedAt: z.string().meta({ format: 'date-time' }).optional(),
  attempts: z.number().int(),
  outcome: z.enum(['ok', 'failed']).optional(),
  failure: failureTypeSchema.optional().meta({ description: "Why the step failed (outcome 'failed')" }),
  message: z
    .string()
    .optional()
    .meta({ description: 'What the failure said (an airline skipped while shopping: why)' }),
  reason: z.string().optional().meta({
    description:
      'Why this step runs: set on the first step of a fresh shopping round, e.g. `reshop 1/2 after NO_SEATS (711)`, and on order lookups while settling',
  }),
});

/**
 * Type of a booking error: a failure type for every business outcome; the API reports a workflow
 * that closed without one (failed by a bug, terminated, timed out) as `WORKFLOW_<execution status>`.
 */
export const bookingErrorTypeSchema = z.union([failureTypeSchema, z.templateLiteral(['WORKFLOW_', z.string()])]);

export const bookingErrorSchema = z.object({
  type: bookingErrorTypeSchema.meta({ description: 'Stable type, e.g. PRICE_MISMATCH, NO_OFFERS, PRICE_NOT_APPROVED' }),
  message: z.string(),
  airlineCode: z.string().optional().meta({ description: "The airline's NDC error code, when it gave one" }),
  airlines: z
    .array(z.object({ airline: z.string(), type: failureTypeSchema, message: z.string() }))
    .optional()
    .meta({ description: "No airline had a usable offer: each one's reason" }),
});

export const bookingStateSchema = z.object({
  status: bookingStatusSchema,
  airline: z
    .string()
    .optional()
    .meta({ description: 'Designator of the airline whose offer was chosen: the owner of the order' }),
  airlines: z
    .array(
      z.object({
        airline: z.string(),
        total: money
          .optional()
          .meta({ description: 'Its best total (one offer per direction by the selection rules)' }),
        chosen: z.literal(true).optional(),
        why: z.string().optional(),
        skipped: z.string().optional().meta({ description: 'Why it had no usable offer' }),
      }),
    )
    .optional()
    .meta({
      description:
        'Bookings routed by airline: each airline shopped, its best total or why it had none, and which won and why',
    }),
  currentStep: bookingStepNameSchema.optional(),
  steps: z.array(stepRecordSchema),
  chosenOffer: z
    .object({
      offerIds: z.array(z.string()),
      priceClass: z.string().optional(),
      departureDate: z.string(),
      returnDate: z.string().optional(),
      shoppingResponseId: z.string(),
    })
    .optional(),
  pricedTotal: money.optional(),
  extras: z
    .object({
      priced: z.array(
        z.object({
          itemId: z.string(),
          passengerId: z.string(),
          passenger: z.number().int().meta({ description: "The passenger's index in the intent" }),
          code: z.string().meta({ example: 'YN1' }),
          segmentKeys: z.array(z.string()),
          seat: z.string().optional().meta({ example: '12A' }),
          price: money.optional(),
        }),
      ),
      total: money.optional(),
      notes: z.array(z.string()).meta({ description: 'Seats that could not be had, re-picks, timeouts' }),
      seatMapReads: z.number().int(),
    })
    .optional()
    .meta({ description: 'The extras asked for in the intent, as priced (each against passenger and segments)' }),
  surcharge: money.optional(),
  order: z.object({ orderId: z.string(), bookingReference: z.string(), total: money, status: z.string() }).optional(),
  error: bookingErrorSchema.optional(),
  authentication: z
    .object({
      redirectUrl: z.string().meta({ description: "The issuer's page (ACS_URL): send the traveller's browser there" }),
      expiresAt: z
        .string()
        .meta({ format: 'date-time', description: 'The booking stops waiting then (AUTHENTICATION_TIMEOUT)' }),
      returned: z.enum(['approved', 'declined']).optional().meta({ description: 'The result taken (the first)' }),
      returnedAt: z.string().meta({ format: 'date-time' }).optional(),
    })
    .optional()
    .meta({ description: '3-D Secure: set when the airline asked for the cardholder (AWAITING_AUTHENTICATION)' }),
  settling: z
    .object({
      lookupIds: z.array(z.string()),
      since: z.string().meta({ format: 'date-time' }),
      until: z.string().meta({ format: 'date-time' }),
      lookups: z.number().int(),
    })
    .optional()
    .meta({
      description:
        "While SETTLING, and kept afterwards (also on ESCALATED): the ids the airline's order lookup was asked for, when the window started and ends (workflow time), and how many lookups found nothing",
    }),
  cancellation: z
    .object({
      status: z.enum(['cancelling', 'cancelled', 'failed']),
      requestedAt: z.string(),
      reason: z.string().optional(),
      endedAt: z.string().optional(),
      refund: money.optional().meta({
        description:
          'What the airline refunds: from its OrderCancel answer, or from the cancelled order read back when the answer was lost (absent when the airline states none)',
      }),
      fee: money.optional().meta({ description: 'Cancellation fee the airline kept' }),
      settledBy: z.enum(['answer', 'retrieve']).optional(),
      error: bookingErrorSchema.optional(),
    })
    .optional()
    .meta({
      description:
        'Cancelling the confirmed order within the cancel window: cancelling, then cancelled (status CANCELLED) or failed (the booking stays CONFIRMED, error says why)',
    }),
  payment: z
    .object({
      status: z.enum(['due', 'paid', 'expired']),
      amount: money,
      dueBy: z.string().meta({ format: 'date-time' }).optional(),
      priceGuaranteedUntil: z.string().meta({ format: 'date-time' }).optional(),
      paidAt: z.string().meta({ format: 'date-time' }).optional(),
    })
    .optional()
    .meta({
      description:
        'A held booking (intent `payment.hold`): what is due, by when (the airline cancels it unpaid then), and until when its price holds',
    }),
  flights: z
    .array(orderFlightSchema)
    .optional()
    .meta({ description: 'The flights of the order as it is now (after any change)' }),
  serviceableUntil: z.string().meta({ format: 'date-time' }).optional().meta({
    description: 'The booking takes servicing actions until then: when its last flight has departed',
  }),
  servicing: z
    .object({
      action: servicingActionSchema,
      since: z.string().meta({ format: 'date-time' }),
      amount: money.optional().meta({ description: 'What the action charges (positive) or refunds (negative)' }),
    })
    .optional()
    .meta({ description: 'The servicing action running now (one at a time: another is refused with BOOKING_BUSY)' }),
  changes: z
    .array(
      z.object({
        at: z.string().meta({ format: 'date-time' }),
        kind: z.enum(['trip', 'services', 'passengers', 'payment', 'airline']),
        by: z.enum(['agency', 'policy', 'airline']).optional().meta({ description: 'Who settled an airline change' }),
        from: z.array(orderFlightSchema).optional(),
        to: z.array(orderFlightSchema).optional(),
        difference: money
          .optional()
          .meta({ description: "Positive: charged, the airline's servicing card fee included; negative: refunded" }),
        penalty: money.optional(),
        passengers: z.array(z.number().int()).optional().meta({ description: 'Travellers removed' }),
        total: money.optional().meta({ description: "The order's total after the change" }),
      }),
    )
    .optional()
    .meta({ description: 'Every change of the order after the booking, in order' }),
  airlineChange: z
    .object({
      detectedAt: z.string().meta({ format: 'date-time' }),
      detectedBy: z.enum(['notification', 'order-read']),
      kind: z.enum(['retime', 'reroute', 'cancelled']),
      reason: z.string().optional(),
      before: z.array(orderFlightSchema),
      after: z.array(orderFlightSchema),
      shiftMinutes: z.number().optional(),
      actionBy: z.string().meta({ format: 'date-time' }).optional(),
      actions: z.array(z.enum(['accept', 'rebook', 'cancel'])),
      action: z
        .object({
          taken: z.enum(['accept', 'rebook', 'cancel', 'airline-default']),
          by: z.enum(['agency', 'policy', 'airline']),
          at: z.string().meta({ format: 'date-time' }),
        })
        .optional(),
    })
    .optional()
    .meta({
      description:
        'The last change the airline made to the order (a schedule change, a cancelled flight): the trip before and after, what the agency may do by when, and what was done',
    }),
  retrieveError: bookingErrorSchema
    .optional()
    .meta({ description: 'CONFIRMED, but the order could not be read back after its creation' }),
  correlationId: z
    .string()
    .optional()
    .meta({ description: 'Sent to the airline as the NDC CorrelationID: the X-Request-Id of the POST' }),
});

export const batchStatusSchema = z.enum(['RUNNING', 'COMPLETED', 'COMPENSATING', 'COMPENSATED', 'COMPENSATION_FAILED']);
export const compensationOutcomeSchema = z.enum(['PENDING', 'DONE', 'IMPOSSIBLE']);

export const batchProgressSchema = z.object({
  total: z.number().int(),
  pending: z.number().int().meta({ description: 'Intents whose child workflow has not started yet' }),
  running: z.number().int(),
  confirmed: z.number().int(),
  held: z.number().int().meta({ description: 'Orders held for payment later (intent payment.hold)' }),
  failed: z.number().int(),
  cancelled: z.number().int(),
  escalated: z.number().int(),
  bookings: z.array(
    z.object({
      id: z.string(),
      status: bookingStatusSchema,
      refund: money.optional(),
      compensation: compensationOutcomeSchema.optional(),
    }),
  ),
  atomic: z.literal(true).optional(),
  status: batchStatusSchema.optional(),
  skipped: z.number().int().optional(),
});

/**
 * zod schemas of the API's answers and of its error body: the source of their TypeScript types
 * (below) and of the OpenAPI document's component schemas (`src/api/openapi.ts`). Request schemas
 * live beside their validation (`bookings/booking.dto.ts`, the intent in
 * `src/booking/booking.schemas.ts`) and are derived the same way.
 */
import { z } from 'zod/v4';
import type { ServicingAnswers } from '../../booking/booking.model';
import {
  batchProgressSchema,
  bookingStateSchema,
  bookingStatusSchema,
  moneySchema,
  orderFlightSchema,
} from '../../booking/booking.schemas';
import { NDC_BINDINGS } from '../../ndc/soap';

const status = bookingStatusSchema;
export const bookingLinksSchema = z.object({
  self: z.string(),
  order: z.string(),
  approvePrice: z.string(),
  cancel: z.string(),
});
const bookingLinks = bookingLinksSchema;

export const problemSchema = z
  .object({
    type: z.string().meta({ example: 'urn:ndc-saga:problem:booking-not-found' }),
    title: z.string().meta({ example: 'Not Found' }),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().meta({ description: 'The request path' }),
    code: z.string().meta({ description: 'Stable error code, e.g. BOOKING_NOT_FOUND' }),
    requestId: z.string().meta({ description: 'The X-Request-Id of the answer' }),
    fields: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Every bad field of an invalid request' }),
  })
  .meta({ description: 'RFC 9457 problem (application/problem+json)' });

export const bookingAcceptedSchema = z.object({
  id: z.string().meta({ example: 'booking:AGENCY1:3f0c-key' }),
  status,
  existing: z.boolean(),
  links: bookingLinks,
});

/**
 * Body of GET /bookings/:id: the booking's state (booking.schemas.ts) with its id and links.
 * `stale` is set when no worker answered the state query in time: the status then comes from the
 * BookingStatus search attribute, steps and totals are left out.
 */
export const bookingViewSchema = z
  .object({ id: z.string() })
  .extend(bookingStateSchema.shape)
  .extend({
    stale: z.string().optional().meta({
      description: 'Set when no worker answered the state query in time: status from the search attributes only',
    }),
    links: bookingLinks,
  });

export const bookingListSchema = z.object({
  bookings: z.array(
    z.object({
      id: z.string(),
      status: z.string().optional(),
      agencyId: z.string().optional(),
      route: z.string().optional(),
      airline: z.string().optional(),
      bookingReference: z.string().optional(),
      workflowStatus: z.string(),
      startTime: z.string().meta({ format: 'date-time' }),
      closeTime: z.string().meta({ format: 'date-time' }).optional(),
    }),
  ),
});

export const signalSentSchema = z.object({
  id: z.string(),
  status,
  signal: z.string().meta({
    description: 'approvePrice, cancel (signals), cancelBooking (update: a confirmed booking) or selectSeats (update)',
  }),
  cancellation: bookingStateSchema.shape.cancellation,
  links: bookingLinks,
});

export const authenticationResultSchema = z.object({
  result: z
    .enum(['approved', 'declined'])
    .meta({ description: 'approved: the browser came to the TermURL; declined: to the FailURL' }),
  paRes: z
    .string()
    .max(8192)
    .optional()
    .meta({ description: "The issuer's signed result (PaRes) exactly as received" }),
});

export const authenticationReceiptSchema = z.object({
  id: z.string(),
  outcome: z.enum(['approved', 'declined']).meta({ description: 'The result the booking took (the first one)' }),
  first: z.boolean().meta({ description: 'false: a result was taken before; this one changed nothing' }),
});

export const airlineListSchema = z.object({
  airlines: z.array(
    z.object({
      code: z.string().meta({ example: 'ZZ' }),
      name: z.string(),
      binding: z.enum(NDC_BINDINGS).meta({ description: 'How the NDC messages travel' }),
      rateLimitRps: z.number().meta({ description: 'Airline calls per second across all bookings' }),
    }),
  ),
});

export const seatMapViewSchema = z.object({
  segments: z.array(
    z.object({
      segment: z.string(),
      flight: z.string().meta({ example: 'ZZ123' }),
      seats: z.array(
        z.object({
          seat: z.string().meta({ example: '12A' }),
          available: z.boolean(),
          price: z.string().optional().meta({ example: '12.00' }),
          currency: z.string().optional(),
          zone: z.string().optional().meta({ example: 'XST_ZONE3' }),
          characteristics: z.array(z.string()).meta({ example: ['window'] }),
        }),
      ),
    }),
  ),
});

/**
 * Answer of the servicing actions that change the booking (`POST /bookings/{id}/payment`,
 * `/changes`, `/services`, `/cancel` with `passengers`): the booking view, 200 once the action is
 * done, 202 while it still runs (3-D Secure, a price approval: follow `Location`).
 */
export const servicingAnswerSchema = bookingViewSchema.extend({
  refund: moneySchema.optional().meta({
    description: 'POST /cancel with passengers, done: what the airline refunds for the travellers removed',
  }),
});

/** Answer of `POST /bookings/{id}/change-offers` (the workflow's `changeOffers` update). */
export const changeOffersAnswerSchema = z.object({
  offers: z.array(
    z.object({
      id: z.string().meta({ description: 'offerId of POST /bookings/{id}/changes' }),
      journey: z.object({ departureDate: z.string(), returnDate: z.string().optional() }),
      flights: z.array(orderFlightSchema),
      priceClass: z.string().optional(),
      total: moneySchema.meta({ description: "The trip's new total" }),
      difference: moneySchema.meta({ description: 'Positive: to pay; negative: refunded (penalty included)' }),
      penalty: moneySchema.meta({ description: 'The change fee of the fare family' }),
      expiresAt: z.string().meta({ format: 'date-time' }),
    }),
  ),
});

/** Answer of `GET /bookings/{id}/services` (the workflow's `orderServices` update). */
export const orderServicesAnswerSchema = z.object({
  services: z.array(
    z.object({
      code: z.string().meta({ example: 'YN1', description: "As the intent's extras.bags[].code" }),
      passenger: z.number().int().meta({ description: "The passenger's index in the intent" }),
      direction: z.enum(['outbound', 'return']),
      segment: z.string().meta({ description: 'The segment key it applies to' }),
      price: z.string().meta({ example: '25.00' }),
      currency: z.string(),
    }),
  ),
});

/** Answer of `POST /bookings/{id}/cancel-quote` (the workflow's `cancelQuote` update): nothing changes. */
export const refundQuoteSchema = z.object({
  refund: moneySchema.meta({ description: 'What the airline would refund now' }),
  penalty: moneySchema.meta({ description: 'What it would keep' }),
  expiresAt: z.string().meta({ format: 'date-time' }).optional(),
  passengers: z.array(z.number().int()).meta({ description: 'The travellers (intent indexes) the quote is for' }),
});

export const batchAcceptedSchema = z.object({
  id: z.string().meta({ example: 'batch:AGENCY1:nightly-42' }),
  total: z.number().int(),
  existing: z.boolean(),
  links: z.object({ self: z.string() }),
});

const progressEntry = batchProgressSchema.shape.bookings.element;

/** Body of GET /batches/:id: the batch workflow's progress, each booking with its link. */
export const batchViewSchema = z
  .object({ id: z.string(), done: z.boolean().meta({ description: 'True once every child booking has finished' }) })
  .extend(batchProgressSchema.omit({ bookings: true }).shape)
  .extend({
    bookings: z.array(
      progressEntry.pick({ id: true, status: true, refund: true, compensation: true }).extend({
        links: z.object({ self: z.string() }),
      }),
    ),
    stale: z
      .string()
      .optional()
      .meta({ description: 'Set when no worker answered the progress query in time: counts from visibility' }),
    links: z.object({ self: z.string() }),
  });

/** The API's answers, as TypeScript types inferred from the schemas above (one source). */
export type BookingLinks = z.infer<typeof bookingLinksSchema>;
export type BookingAccepted = z.infer<typeof bookingAcceptedSchema>;
export type BookingView = z.infer<typeof bookingViewSchema>;
export type BookingSummary = z.infer<typeof bookingListSchema>['bookings'][number];
export type SignalSent = z.infer<typeof signalSentSchema>;
export type BatchAccepted = z.infer<typeof batchAcceptedSchema>;
export type BatchView = z.infer<typeof batchViewSchema>;
export type SeatMapView = z.infer<typeof seatMapViewSchema>;
export type ServicingAnswer = z.infer<typeof servicingAnswerSchema>;
export type ChangeOffersAnswer = z.infer<typeof changeOffersAnswerSchema>;
export type OrderServicesAnswer = z.infer<typeof orderServicesAnswerSchema>;
export type RefundQuoteAnswer = z.infer<typeof refundQuoteSchema>;

/** True when `A` and `B` are assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * The servicing answers are what the workflow answers (`ServicingAnswers`, servicing.model.ts): a
 * field added there and not here (so missing from the OpenAPI document) does not compile.
 */
export const SERVICING_ANSWERS_MATCH: [
  Same<ChangeOffersAnswer, ServicingAnswers['changeOffers']>,
  Same<OrderServicesAnswer, ServicingAnswers['orderServices']>,
  Same<RefundQuoteAnswer, ServicingAnswers['cancelQuote']>,
] = [true, true, true];

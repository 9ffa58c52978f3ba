/**
 * zod schemas of the API's answers and of its error body, from which the OpenAPI document's
 * component schemas are derived (`z.toJSONSchema`). Request schemas (the intent, the list query)
 * live beside their validation in `bookings/booking.dto.ts` and are derived the same way.
 */
import { z } from 'zod/v4';
import { BookingStatus } from '../../booking/booking.model';
import { bookingIntentSchema, bookingListQuerySchema } from '../bookings/booking.dto';
import { codecBodySchema } from '../codec/codec.controller';
import { NDC_BINDINGS } from '../../ndc/soap';

const status = z.enum(BookingStatus);
const money = z.object({
  value: z.string().meta({ example: '129.00' }),
  currency: z.string().meta({ example: 'GBP' }),
});
const bookingLinks = z.object({ self: z.string(), order: z.string(), approvePrice: z.string(), cancel: z.string() });
const bookingError = z.object({
  type: z.string(),
  message: z.string(),
  airlineCode: z.string().optional(),
  airlines: z
    .array(z.object({ airline: z.string(), type: z.string(), message: z.string() }))
    .optional()
    .meta({ description: "No airline had a usable offer: each one's reason" }),
});

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

export const bookingViewSchema = z.object({
  id: z.string(),
  status,
  airline: z.string().optional().meta({ description: 'The airline whose offer was chosen: the owner of the order' }),
  airlines: z
    .array(
      z.object({
        airline: z.string(),
        total: money.optional().meta({ description: 'Its best total (one offer per direction)' }),
        chosen: z.literal(true).optional(),
        why: z.string().optional(),
        skipped: z.string().optional().meta({ description: 'Why it had no usable offer' }),
      }),
    )
    .optional()
    .meta({ description: 'Each airline shopped, its best total or why it had none, and which won' }),
  currentStep: z.string().optional(),
  steps: z.array(
    z.object({
      name: z.string(),
      airline: z.string().optional(),
      startedAt: z.string().meta({ format: 'date-time' }),
      endedAt: z.string().meta({ format: 'date-time' }).optional(),
      attempts: z.number().int(),
      outcome: z.enum(['ok', 'failed']).optional(),
      failure: z.string().optional(),
      message: z.string().optional(),
      reason: z.string().optional(),
    }),
  ),
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
  surcharge: money.optional(),
  order: z.object({ orderId: z.string(), bookingReference: z.string(), total: money, status: z.string() }).optional(),
  error: bookingError.optional(),
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
  retrieveError: bookingError
    .optional()
    .meta({ description: 'CONFIRMED, but the order could not be read back after its creation' }),
  correlationId: z
    .string()
    .optional()
    .meta({ description: 'Sent to the airline as the NDC CorrelationID: the X-Request-Id of the POST' }),
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

/** A confirmed booking's cancellation (BookingState.cancellation). */
const cancellation = z.object({
  status: z.enum(['cancelling', 'cancelled', 'failed']),
  requestedAt: z.string(),
  reason: z.string().optional(),
  endedAt: z.string().optional(),
  refund: money
    .optional()
    .meta({ description: 'What the airline refunds (absent when the cancel was settled by reading the order back)' }),
  fee: money.optional().meta({ description: 'Cancellation fee the airline kept' }),
  settledBy: z.enum(['answer', 'retrieve']).optional(),
  error: z.object({ type: z.string(), message: z.string() }).passthrough().optional(),
});

export const signalSentSchema = z.object({
  id: z.string(),
  status,
  signal: z
    .string()
    .meta({ description: 'approvePrice, cancel (signals) or cancelBooking (update: a confirmed booking)' }),
  cancellation: cancellation.optional(),
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

export const batchAcceptedSchema = z.object({
  id: z.string().meta({ example: 'batch:AGENCY1:nightly-42' }),
  total: z.number().int(),
  existing: z.boolean(),
  links: z.object({ self: z.string() }),
});

export const batchViewSchema = z.object({
  id: z.string(),
  done: z.boolean(),
  total: z.number().int(),
  pending: z.number().int(),
  running: z.number().int(),
  confirmed: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  escalated: z.number().int(),
  bookings: z.array(z.object({ id: z.string(), status, links: z.object({ self: z.string() }) })),
  stale: z
    .string()
    .optional()
    .meta({ description: 'Set when no worker answered the progress query in time: counts from visibility' }),
  links: z.object({ self: z.string() }),
});

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** Component schemas of the OpenAPI document, all derived from zod. */
export function openApiComponentSchemas(): Record<string, Record<string, unknown>> {
  return {
    BookingIntent: jsonSchema(bookingIntentSchema('2000-01-01'), 'input'),
    BookingListQuery: jsonSchema(bookingListQuerySchema, 'input'),
    BookingAccepted: jsonSchema(bookingAcceptedSchema),
    BookingView: jsonSchema(bookingViewSchema),
    BookingList: jsonSchema(bookingListSchema),
    AirlineList: jsonSchema(airlineListSchema),
    SignalSent: jsonSchema(signalSentSchema),
    AuthenticationResult: jsonSchema(authenticationResultSchema),
    AuthenticationReceipt: jsonSchema(authenticationReceiptSchema),
    BatchAccepted: jsonSchema(batchAcceptedSchema),
    BatchView: jsonSchema(batchViewSchema),
    Problem: jsonSchema(problemSchema),
    CodecPayloads: jsonSchema(codecBodySchema, 'input'),
  };
}

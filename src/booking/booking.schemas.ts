/**
 * zod schemas of the booking state and of a batch's progress: the one source of their
 * TypeScript types (`booking.model.ts` infers `StepRecord`, `BookingError`, `BookingState` and
 * `BatchProgress` from them, with type-only imports so the workflow bundle never loads zod) and of
 * the API's OpenAPI schemas (`src/api/common/api.schemas.ts`). A field added to the state is
 * added here, and then appears in the types and in the API document alike.
 */
import { z } from 'zod/v4';
import { FailureType } from './booking.failures';
import { BookingStatus } from './booking.status';

const money = z.object({
  value: z.string().meta({ example: '129.00' }),
  currency: z.string().meta({ example: 'GBP' }),
});

/** Exact decimal amount with its currency. */
export const moneySchema = money;

export const bookingStatusSchema = z.enum(BookingStatus);
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

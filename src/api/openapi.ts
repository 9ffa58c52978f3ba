/**
 * The component schemas of the OpenAPI document (`GET /docs/json`, built in `configureApp`), every
 * one derived from the zod schema that validates the request or that the answer's type is
 * inferred from: a field added to a schema is in the document too.
 */
import { z } from 'zod/v4';
import { submittedIntentSchema } from '../booking/booking.schemas';
import {
  airlineListSchema,
  authenticationReceiptSchema,
  authenticationResultSchema,
  batchAcceptedSchema,
  batchViewSchema,
  bookingAcceptedSchema,
  bookingListSchema,
  bookingViewSchema,
  changeOffersAnswerSchema,
  orderServicesAnswerSchema,
  problemSchema,
  refundQuoteSchema,
  seatMapViewSchema,
  servicingAnswerSchema,
  signalSentSchema,
} from './common/api.schemas';
import { bookingListQuerySchema, seatSelectionSchema } from './bookings/booking.dto';
import {
  addServicesBodySchema,
  airlineChangeBodySchema,
  cancelBodySchema,
  cancelQuoteBodySchema,
  changeOffersBodySchema,
  changeTripBodySchema,
  payBookingBodySchema,
} from './bookings/servicing.dto';
import { codecBodySchema } from './codec/codec.controller';
import { webhookCreateSchema } from './webhooks/webhook.dto';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** Component schemas of the OpenAPI document, all derived from zod. */
export function openApiComponentSchemas(): Record<string, Record<string, unknown>> {
  return {
    BookingIntent: jsonSchema(submittedIntentSchema, 'input'),
    BookingListQuery: jsonSchema(bookingListQuerySchema, 'input'),
    BookingAccepted: jsonSchema(bookingAcceptedSchema),
    BookingView: jsonSchema(bookingViewSchema),
    BookingList: jsonSchema(bookingListSchema),
    AirlineList: jsonSchema(airlineListSchema),
    SignalSent: jsonSchema(signalSentSchema),
    SeatMapView: jsonSchema(seatMapViewSchema),
    SeatSelection: jsonSchema(seatSelectionSchema, 'input'),
    PayBooking: jsonSchema(payBookingBodySchema, 'input'),
    ChangeOffersRequest: jsonSchema(changeOffersBodySchema, 'input'),
    ChangeOffers: jsonSchema(changeOffersAnswerSchema),
    ChangeTrip: jsonSchema(changeTripBodySchema, 'input'),
    AirlineChangeAnswer: jsonSchema(airlineChangeBodySchema, 'input'),
    OrderServices: jsonSchema(orderServicesAnswerSchema),
    AddServices: jsonSchema(addServicesBodySchema, 'input'),
    CancelQuoteRequest: jsonSchema(cancelQuoteBodySchema, 'input'),
    RefundQuote: jsonSchema(refundQuoteSchema),
    CancelRequest: jsonSchema(cancelBodySchema, 'input'),
    ServicingAnswer: jsonSchema(servicingAnswerSchema),
    AuthenticationResult: jsonSchema(authenticationResultSchema),
    AuthenticationReceipt: jsonSchema(authenticationReceiptSchema),
    BatchAccepted: jsonSchema(batchAcceptedSchema),
    BatchView: jsonSchema(batchViewSchema),
    WebhookCreate: jsonSchema(webhookCreateSchema(false), 'input'),
    Problem: jsonSchema(problemSchema),
    CodecPayloads: jsonSchema(codecBodySchema, 'input'),
  };
}

/**
 * Validation of the servicing requests at the edge (zod): paying a held booking, change offers
 * and changes, services, refund quotes and cancels (docs/api.md, "After the booking"). Each
 * schema is the one source of its request type and of its OpenAPI component; the rules that need
 * today's date (card expiry, travel dates) are checked after the shape. Unknown keys are refused
 * by name; messages never contain the submitted values (card data must not be echoed).
 */
import { z } from 'zod/v4';
import type { PaymentCard } from '../../booking/booking.model';
import { bookingIntentSchema, intentExtrasSchema } from '../../booking/booking.schemas';
import type {
  AddServicesRequest,
  AirlineChangeAnswer,
  ChangeOffersRequest,
  ChangeTripRequest,
  PayRequest,
} from '../../booking/servicing.model';
import { isDecimal } from '../../common/decimal';
import { paymentCardSchema } from '../../common/payment-card';
import { isIsoDate, isoDate, text } from '../../common/zod-fields';
import { formatPath, validateWith, type FieldError, type ValidationResult } from '../common/validation';
import { CARD_EXPIRED, cardExpired, seatSelectionSchema } from './booking.dto';

/** `{ card }`: the card rules of the intent (`payment.card`), expiry included. */
const cardPaymentSchema = z.strictObject({ card: paymentCardSchema });

/** Indexes in the intent's `passengers`, each once. */
const passengerIndexesSchema = z
  .array(z.number({ message: 'must be a passenger index' }).int('must be an integer').min(0).max(8))
  .min(1, 'must name at least one passenger')
  .max(9)
  .refine((list) => new Set(list).size === list.length, 'must not name a passenger twice');

/** `POST /bookings/{id}/payment`: the card that pays a held booking. */
export const payBookingBodySchema = cardPaymentSchema;
export type PayBookingBody = z.infer<typeof payBookingBodySchema>;

/** `POST /bookings/{id}/change-offers`: other dates (and a price class) for the trip. */
export const changeOffersBodySchema = z.strictObject({
  journey: z.strictObject({ departureDate: isoDate, returnDate: isoDate.optional() }),
  /** Default: the airline's offers in every price class. */
  priceClass: bookingIntentSchema.shape.selection.unwrap().shape.priceClass,
});
export type ChangeOffersBody = z.infer<typeof changeOffersBodySchema>;

/** `POST /bookings/{id}/changes`: take a change offer. */
export const changeTripBodySchema = z.strictObject({
  offerId: text(200),
  /** Needed only when the change costs something. */
  payment: cardPaymentSchema.optional(),
  /** Above it the change is refused (409) and nothing changes; negative: only changes refunding at least that much. */
  maxDifference: z
    .string({ message: 'must be a decimal string such as "25.00"' })
    .refine(isDecimal, { message: 'must be a decimal string such as "25.00"' })
    .optional(),
});
export type ChangeTripBody = z.infer<typeof changeTripBodySchema>;

/** `POST /bookings/{id}/airline-change`: the agency's answer to a change the airline made. */
export const airlineChangeBodySchema = z
  .strictObject({
    action: z.enum(['accept', 'rebook', 'cancel'], { message: 'must be accept, rebook or cancel' }),
    /** `rebook`: an offer of `change-offers` (the change fee waived). */
    offerId: text(200).optional(),
    /** `rebook`: needed only when something is due. */
    payment: cardPaymentSchema.optional(),
  })
  .refine((body) => body.action !== 'rebook' || body.offerId !== undefined, {
    path: ['offerId'],
    message: 'is needed to rebook: an offer of change-offers',
  })
  .refine((body) => body.action === 'rebook' || (body.offerId === undefined && body.payment === undefined), {
    path: ['action'],
    message: 'only rebook takes offerId and payment',
  });
export type AirlineChangeBody = z.infer<typeof airlineChangeBodySchema>;

/** `POST /bookings/{id}/services`: bags (codes as in the intent's extras) and seats added to the order. */
export const addServicesBodySchema = z
  .strictObject({
    bags: intentExtrasSchema.shape.bags,
    seats: z.array(seatSelectionSchema.shape.seats.element).max(40).optional(),
    /** Needed when anything added has a price. */
    payment: cardPaymentSchema.optional(),
  })
  .refine((body) => (body.bags?.length ?? 0) + (body.seats?.length ?? 0) > 0, {
    message: 'add at least one bag or seat',
    path: ['bags'],
  });
export type AddServicesBody = z.infer<typeof addServicesBodySchema>;

/** `POST /bookings/{id}/cancel-quote`: the refund of cancelling all (no body), or of removing some travellers. */
export const cancelQuoteBodySchema = z.strictObject({ passengers: passengerIndexesSchema.optional() });
export type CancelQuoteBody = z.infer<typeof cancelQuoteBodySchema>;

/** `POST /bookings/{id}/cancel`: the whole booking (no body), or some travellers removed (`passengers`). */
export const cancelBodySchema = z.strictObject({
  passengers: passengerIndexesSchema.optional(),
  reason: text(200).optional(),
});
export type CancelBody = z.infer<typeof cancelBodySchema>;

/** Validates `body` (absent: `{}`) with `schema`, then the rules of `today` on the parsed value. */
function validateOn<S extends z.ZodType>(
  schema: S,
  body: unknown,
  dated: (value: z.output<S>) => FieldError[] = () => [],
): ValidationResult<z.output<S>> {
  const checked = validateWith(schema, body ?? {});
  if (!checked.ok) return checked;
  const fields = dated(checked.value);
  return fields.length === 0 ? checked : { ok: false, fields };
}

/** The card's expiry, at `path` (`payment.card`). */
function expiry(card: PaymentCard | undefined, today: string, path: readonly string[]): FieldError[] {
  return card !== undefined && cardExpired(card, today)
    ? [{ path: formatPath([...path, 'expirationMonth']), message: CARD_EXPIRED }]
    : [];
}

/** Validates `POST /bookings/{id}/payment` (`today`: `YYYY-MM-DD`, UTC, for the card's expiry). */
export function validatePayBooking(body: unknown, today: string): ValidationResult<PayRequest> {
  return validateOn(payBookingBodySchema, body, (value) => expiry(value.card, today, ['card']));
}

/** Validates `POST /bookings/{id}/change-offers`: not before today, back after the departure. */
export function validateChangeOffers(body: unknown, today: string): ValidationResult<ChangeOffersRequest> {
  const checked = validateOn(changeOffersBodySchema, body, ({ journey }) => {
    const fields: FieldError[] = [];
    if (journey.departureDate < today)
      fields.push({ path: 'journey.departureDate', message: `must not be before today (${today})` });
    if (
      journey.returnDate !== undefined &&
      isIsoDate(journey.returnDate) &&
      journey.returnDate <= journey.departureDate
    )
      fields.push({ path: 'journey.returnDate', message: 'must be after departureDate' });
    return fields;
  });
  if (!checked.ok) return checked;
  const { journey, priceClass } = checked.value;
  return { ok: true, value: { journey, ...(priceClass !== undefined ? { priceClass } : {}) } };
}

/** Validates `POST /bookings/{id}/changes`; the update takes the card as `card`. */
export function validateChangeTrip(body: unknown, today: string): ValidationResult<ChangeTripRequest> {
  const checked = validateOn(changeTripBodySchema, body, (value) =>
    expiry(value.payment?.card, today, ['payment', 'card']),
  );
  if (!checked.ok) return checked;
  const { offerId, payment, maxDifference } = checked.value;
  return {
    ok: true,
    value: {
      offerId,
      ...(payment !== undefined ? { card: payment.card } : {}),
      ...(maxDifference !== undefined ? { maxDifference } : {}),
    },
  };
}

/** Validates `POST /bookings/{id}/airline-change`; the update takes the card as `card`. */
export function validateAirlineChange(body: unknown, today: string): ValidationResult<AirlineChangeAnswer> {
  const checked = validateOn(airlineChangeBodySchema, body, (value) =>
    expiry(value.payment?.card, today, ['payment', 'card']),
  );
  if (!checked.ok) return checked;
  const { action, offerId, payment } = checked.value;
  return {
    ok: true,
    value: {
      action,
      ...(offerId !== undefined ? { offerId } : {}),
      ...(payment !== undefined ? { card: payment.card } : {}),
    },
  };
}

/** Validates `POST /bookings/{id}/services`; the update takes the card as `card`. */
export function validateAddServices(body: unknown, today: string): ValidationResult<AddServicesRequest> {
  const checked = validateOn(addServicesBodySchema, body, (value) =>
    expiry(value.payment?.card, today, ['payment', 'card']),
  );
  if (!checked.ok) return checked;
  const { bags, seats, payment } = checked.value;
  return {
    ok: true,
    value: {
      ...(bags !== undefined && bags.length > 0 ? { bags } : {}),
      ...(seats !== undefined && seats.length > 0 ? { seats } : {}),
      ...(payment !== undefined ? { card: payment.card } : {}),
    },
  };
}

/** Validates `POST /bookings/{id}/cancel-quote` (no body: the whole booking). */
export function validateCancelQuote(body: unknown): ValidationResult<CancelQuoteBody> {
  return validateOn(cancelQuoteBodySchema, body);
}

/** Validates `POST /bookings/{id}/cancel` (no body: the whole booking). */
export function validateCancel(body: unknown): ValidationResult<CancelBody> {
  return validateOn(cancelBodySchema, body);
}

/**
 * The payment card, as a booking intent carries it and the airline's token service receives it
 * (`payment-token.model.ts`): one zod schema, the types inferred from it. Sensitive: never logged,
 * never stored in clear, never returned; every message is a fixed string, never derived from the
 * value.
 */
import { z } from 'zod/v4';
import { luhnValid } from './luhn';
import { text, upper } from './zod-fields';

/** The cardholder's billing address. */
export const cardAddressSchema = z.strictObject({
  addressLine1: text(100),
  addressLine2: text(100).optional(),
  postalCode: text(20),
  cityName: text(100),
  stateOrProvince: text(100).optional(),
  countryCode: upper(2, 'an ISO 3166 country code'),
});

/**
 * A 3-D Secure authentication of the card done before the booking (the agency's own 3-D Secure
 * provider): the airline then charges without a challenge. Sensitive like the card.
 */
export const cardAuthenticationSchema = z.strictObject({
  /** Cardholder Authentication Verification Value from the issuer (base64). */
  cavv: z
    .string({ message: 'must be a base64 string' })
    .refine((s) => /^[A-Za-z0-9+/]{4,64}={0,2}$/.test(s), { message: 'must be 4 to 64 base64 characters' }),
  /** E-commerce indicator, e.g. `05`. */
  eci: z
    .string({ message: 'must be a two-digit string' })
    .refine((s) => /^\d{2}$/.test(s), { message: 'must be two digits' }),
  /** The issuer's (ACS) transaction id. */
  transactionId: z.string({ message: 'must be a string' }).refine((s) => /^[A-Za-z0-9._:-]{1,64}$/.test(s), {
    message: 'must be 1 to 64 letters, digits, dots, colons, underscores or dashes',
  }),
});

/** Card data: number (Luhn-checked), holder, expiry, CVV, billing address, an optional prior 3-D Secure result. */
export const paymentCardSchema = z.strictObject({
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
  address: cardAddressSchema,
  /** A 3-D Secure result obtained beforehand; absent: the airline may ask for authentication. */
  authentication: cardAuthenticationSchema.optional(),
});

export type CardAddress = z.infer<typeof cardAddressSchema>;
/** See {@link cardAuthenticationSchema}. */
export type CardAuthentication = z.infer<typeof cardAuthenticationSchema>;
/** Card data. Sensitive: never logged, never stored in clear, never returned. */
export type PaymentCard = z.infer<typeof paymentCardSchema>;

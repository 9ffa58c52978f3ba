/**
 * Validation of the card token request (POST /payment/tokens). Pure: the
 * clock is passed in. Every failure names the field, never its value.
 */
import { z } from 'zod';
import { luhnValid } from '../../common/luhn';

/** Thrown for an invalid token request; `reason` goes after "Bad Request: ". */
export class TokenRequestError extends Error {
  readonly code = 'TOKEN_REQUEST_INVALID';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The validated request. `number` and `verificationCode` must never leave the token service. */
export interface CardTokenRequest {
  expiresAt: Date;
  card: TokenCard;
}

const text = (max: number) =>
  z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`);

const schema = z.object({
  expiryDateTimeUTC: z.string({ required_error: 'is required' }),
  card: z.object(
    {
      number: z.string({ required_error: 'is required', invalid_type_error: 'must be a string' }),
      name: text(100),
      address: z.object(
        {
          addressLine1: text(200),
          addressLine2: z.string().max(200).optional(),
          postalCode: text(20),
          cityName: text(100),
          stateOrProvince: z.string().max(100).optional(),
          countryCode: z
            .string({ required_error: 'is required' })
            .regex(/^[A-Z]{2}$/, 'must be a 2-letter ISO country code'),
        },
        { required_error: 'is required' },
      ),
      expirationYear: z
        .number({ required_error: 'is required', invalid_type_error: 'must be a number' })
        .int('must be an integer')
        .min(2000, 'must be a four-digit year')
        .max(2099, 'must be a four-digit year'),
      expirationMonth: z
        .number({ required_error: 'is required', invalid_type_error: 'must be a number' })
        .int('must be an integer')
        .min(1, 'must be 1 to 12')
        .max(12, 'must be 1 to 12'),
      verificationCode: z
        .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
        .regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
    },
    { required_error: 'is required' },
  ),
});

/** The card of a token request, as the airline reads it (its own schema: the wire body, not the orchestrator's model). */
export type TokenCard = z.infer<typeof schema>['card'];

const UTC_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** Parses `YYYY-MM-DDThh:mm:ss` as UTC; undefined when the form or the date is invalid. */
export function parseUtcDateTime(s: string): Date | undefined {
  const m = UTC_DATE_TIME.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  const roundTrips =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === se;
  return roundTrips ? date : undefined;
}

/**
 * Validates a token request body at time `now`. Rules: every required field
 * present; expiryDateTimeUTC in the form YYYY-MM-DDThh:mm:ss (UTC), in the
 * future and not after the end of the card's expiry month; card number 12-19
 * digits passing Luhn; card not expired; CVV 3-4 digits.
 */
export function validateTokenRequest(body: unknown, now: Date): CardTokenRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TokenRequestError('the body must be a JSON object');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TokenRequestError(`${issue.path.join('.')} ${issue.message}`);
  }
  const b = parsed.data;
  const expiresAt = parseUtcDateTime(b.expiryDateTimeUTC);
  if (!expiresAt) throw new TokenRequestError('expiryDateTimeUTC must be a UTC date-time YYYY-MM-DDThh:mm:ss');
  if (expiresAt.getTime() <= now.getTime()) throw new TokenRequestError('expiryDateTimeUTC must be in the future');
  const number = b.card.number;
  if (!/^\d{12,19}$/.test(number)) throw new TokenRequestError('card.number must be 12 to 19 digits');
  if (!luhnValid(number)) throw new TokenRequestError('card.number is not a valid card number');
  // A card is valid through the last day of its expiry month (UTC).
  const cardEnd = Date.UTC(b.card.expirationYear, b.card.expirationMonth, 1);
  if (cardEnd <= now.getTime()) throw new TokenRequestError('card is expired');
  if (expiresAt.getTime() > cardEnd) {
    throw new TokenRequestError('expiryDateTimeUTC must not be after the card expiry');
  }
  return { expiresAt, card: b.card };
}

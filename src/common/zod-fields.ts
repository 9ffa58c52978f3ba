/**
 * zod field builders the request schemas share (the booking intent and its payment card). Every
 * message is a fixed string, never derived from the value: a refused card number is not echoed.
 */
import { z } from 'zod/v4';
import { isDecimal } from './decimal';

/** Trimmed text of 1 to `max` characters. */
export function text(max: number) {
  return z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
}

/** Exactly `len` capital letters, described as `what` (`an ISO 3166 country code`). */
export function upper(len: number, what: string) {
  return z.string().regex(new RegExp(`^[A-Z]{${len}}$`), `must be ${what} (${len} capital letters)`);
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** A real calendar date written `YYYY-MM-DD`. */
export const isoDate = z.string().refine(isIsoDate, { message: 'must be a valid date YYYY-MM-DD' });

/** An absolute `http:` or `https:` URL. */
export const absoluteUrl = z
  .string()
  .refine((s) => /^https?:\/\//.test(s) && URL.canParse(s), { message: 'must be an absolute http(s) URL' });

/** A non-negative decimal amount string; `example` (`"25.00"`) is quoted in the message. */
export function amountString(example: string) {
  const message = `must be a decimal string such as "${example}"`;
  return z.string({ message }).refine((s) => isDecimal(s) && !s.startsWith('-'), { message });
}

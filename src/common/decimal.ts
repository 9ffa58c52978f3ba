/**
 * Exact decimal arithmetic on amount strings, backed by BigInt.
 *
 * Amounts stay strings everywhere they are stored or sent (`"123.40"`); these
 * helpers do the arithmetic without ever touching a JS float. Results are
 * formatted with a fixed number of fraction digits given by the caller
 * (currency minor units), rounding half away from zero where digits are lost.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** A decimal as an integer `units` scaled by 10^-scale. */
interface Scaled {
  units: bigint;
  scale: number;
}

export class DecimalFormatError extends Error {
  readonly code = 'INVALID_DECIMAL';
  constructor(readonly input: string) {
    super(`not a decimal amount: ${JSON.stringify(input)}`);
  }
}

/** True when `s` is a plain decimal string such as `12`, `-0.5` or `100.00`. */
export function isDecimal(s: string): boolean {
  return DECIMAL.test(s);
}

function parse(s: string): Scaled {
  if (!DECIMAL.test(s)) throw new DecimalFormatError(s);
  // BigInt reads the sign and leading zeros itself: only the point has to go.
  const dot = s.indexOf('.');
  if (dot < 0) return { units: BigInt(s), scale: 0 };
  return { units: BigInt(s.slice(0, dot) + s.slice(dot + 1)), scale: s.length - dot - 1 };
}

/** 10^0 .. 10^18: the factors amounts and rates need, without a BigInt exponentiation each time. */
const POWERS_OF_TEN: readonly bigint[] = Array.from({ length: 19 }, (_, i) => 10n ** BigInt(i));

function tenTo(n: number): bigint {
  return n < POWERS_OF_TEN.length ? POWERS_OF_TEN[n] : 10n ** BigInt(n);
}

function rescale(a: Scaled, scale: number): bigint {
  if (scale >= a.scale) return a.units * tenTo(scale - a.scale);
  const div = tenTo(a.scale - scale);
  const q = a.units / div;
  const r = a.units % div;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= div) return a.units < 0n ? q - 1n : q + 1n;
  return q;
}

function format(units: bigint, scale: number): string {
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = scale > 0 ? '.' + digits.slice(digits.length - scale) : '';
  return (neg ? '-' : '') + int + frac;
}

/** Formats `s` with exactly `scale` fraction digits (rounding half away from zero). */
export function toFixed(s: string, scale: number): string {
  return format(rescale(parse(s), scale), scale);
}

/** `a + b + ...` with `scale` fraction digits. */
export function add(scale: number, ...values: string[]): string {
  let sum = 0n;
  for (const v of values) sum += rescale(parse(v), scale);
  return format(sum, scale);
}

/** `a - b` with `scale` fraction digits. */
export function subtract(a: string, b: string, scale: number): string {
  return format(rescale(parse(a), scale) - rescale(parse(b), scale), scale);
}

/** `a * n` for an integer count `n`, with `scale` fraction digits. */
export function times(a: string, n: number | bigint, scale: number): string {
  return format(rescale(parse(a), scale) * BigInt(n), scale);
}

/** `a * factor` where factor is itself a decimal string (e.g. a rate `"0.9"`). */
export function multiply(a: string, factor: string, scale: number): string {
  const x = parse(a);
  const f = parse(factor);
  return format(rescale({ units: x.units * f.units, scale: x.scale + f.scale }, scale), scale);
}

/** `a * percent / 100`, e.g. `percentOf("200.00", "1.5", 2) === "3.00"`. */
export function percentOf(a: string, percent: string, scale: number): string {
  const x = parse(a);
  const p = parse(percent);
  return format(rescale({ units: x.units * p.units, scale: x.scale + p.scale + 2 }, scale), scale);
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b` (numerically). */
export function compare(a: string, b: string): -1 | 0 | 1 {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const d = rescale(x, scale) - rescale(y, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** True when `a` and `b` are numerically equal (`"10.0"` equals `"10.00"`). */
export function equals(a: string, b: string): boolean {
  return compare(a, b) === 0;
}

/** Minor-unit digits of a currency (ISO 4217); 2 unless listed. */
export function currencyScale(currency: string): number {
  return ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2;
}

const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'ISK', 'CLP', 'VND', 'XAF', 'XOF', 'HUF']);
const THREE_DECIMAL = new Set(['BHD', 'KWD', 'OMR', 'JOD', 'TND', 'LYD', 'IQD']);

/**
 * Fare and tax arithmetic of the airline, exact decimals only
 * (`src/common/decimal.ts`). Every step is rounded to the minor unit of the
 * currency it produces, in this order, per passenger and segment:
 *
 * 1. ladder fare of the booking class (base currency) x weekday factor of the departure date
 * 2. converted with the fixed exchange rate
 * 3. x passenger-type percentage (ADT 100, CHD 75, INF 10)
 * 4. corporate discount (if it applies to the price class), then promotion discount
 *
 * Departure taxes are per passenger and segment, by the country of the
 * departure airport, converted the same way; the UK tax is waived for
 * passengers under 16 on the departure date.
 */
import { add, currencyScale, multiply, percentOf, subtract } from '../../common/decimal';
import type { Money, NdcWarning, Qualifier } from '../../ndc/ndc.model';
import { AirlineError, ndcWarning } from '../airline.errors';
import type { World } from '../world/world';
import { ageOn, weekdayOf } from '../world/world.dates';
import type { DatedSegment, Journey, WorldPriceClass, WorldTax } from '../world/world.types';

/** Discounts in force for a request (already validated against the world). */
export interface Discounts {
  promotion?: { code: string; percentOff: string };
  corporate?: { account: string; percentOff: string; priceClasses: string[] };
}

/** Booking class chosen on one segment. */
export interface SegmentBucket {
  segment: DatedSegment;
  rbd: string;
  /** Seats left in that booking class before this sale. */
  seatsLeft: number;
}

export interface PassengerPrice {
  base: string;
  taxes: string;
  total: string;
}

/** How a passenger is seen by the age-dependent tax rule. */
export type AgeInfo = { birthdate: string } | { assumedUnder16: boolean };

/**
 * The cheapest booking class of `priceClass` on each segment that still has
 * `seats` seats (capacity minus sold); undefined when some segment has none.
 */
export function chooseBuckets(
  world: World,
  journey: Journey,
  priceClass: WorldPriceClass,
  seats: number,
  sold: (inventoryKey: string, rbd: string) => number,
): SegmentBucket[] | undefined {
  const out: SegmentBucket[] = [];
  for (const segment of journey.segments) {
    let chosen: SegmentBucket | undefined;
    for (const rbd of priceClass.rbds) {
      const left = world.capacity(segment.inventoryKey, rbd) - sold(segment.inventoryKey, rbd);
      if (left >= Math.max(seats, 1)) {
        chosen = { segment, rbd, seatsLeft: left };
        break;
      }
    }
    if (!chosen) return undefined;
    out.push(chosen);
  }
  return out;
}

/** The currency of a request: OverrideCurrency, else the point-of-sale country's, else the default. */
export function resolveCurrency(
  world: World,
  overrideCurrency: string | undefined,
  pointOfSaleCountry: string | undefined,
): string {
  const currency =
    overrideCurrency ??
    (pointOfSaleCountry ? world.country(pointOfSaleCountry)?.currency : undefined) ??
    world.data.defaultCurrency;
  if (!world.data.exchangeRates[currency]) {
    throw new AirlineError(
      'UNSUPPORTED_CURRENCY',
      `Currency ${currency} is not supported; use one of ${Object.keys(world.data.exchangeRates).join(', ')}`,
    );
  }
  return currency;
}

/** Converts a base-currency amount into `currency`, rounded to its minor unit. */
export function convert(world: World, amount: string, currency: string): string {
  return multiply(amount, world.data.exchangeRates[currency], currencyScale(currency));
}

/**
 * Reads the Qualifier: a known promotion code and a corporate agreement with
 * AirlineID = our designator and a known Account give discounts; anything else
 * gives a Warning and public fares.
 */
export function evaluateQualifier(
  world: World,
  qualifier: Qualifier | undefined,
): { discounts: Discounts; warnings: NdcWarning[] } {
  const discounts: Discounts = {};
  const warnings: NdcWarning[] = [];
  for (const code of qualifier?.promotionCodes ?? []) {
    const promo = world.data.promotions[code];
    if (promo && !discounts.promotion) discounts.promotion = { code, percentOff: promo.percentOff };
    else if (!promo)
      warnings.push(ndcWarning('UNKNOWN_PROMOTION', `Promotion code ${code} is not valid; public fares apply`));
  }
  const special = qualifier?.specialFare;
  if (special) {
    // Our corporate agreements are accounts; a Contract (the other branch of the XSD choice) names none of them.
    const account = special.account !== undefined ? world.data.corporateAccounts[special.account] : undefined;
    if (special.airlineId === world.airlineCode && special.account !== undefined && account) {
      discounts.corporate = { account: special.account, ...account };
    } else {
      warnings.push(
        ndcWarning(
          'UNKNOWN_CORPORATE_ACCOUNT',
          `Corporate agreement ${special.airlineId}/${special.account ?? `Contract ${special.contract ?? '(none)'}`} is not valid; public fares apply`,
        ),
      );
    }
  }
  return { discounts, warnings };
}

/** Base fare of one passenger type on one segment. */
export function segmentBase(
  world: World,
  bucket: SegmentBucket,
  priceClass: WorldPriceClass,
  ptc: string,
  currency: string,
  discounts: Discounts,
): string {
  const scale = currencyScale(currency);
  const baseScale = currencyScale(world.data.baseCurrency);
  const index = priceClass.rbds.indexOf(bucket.rbd);
  const ladder = bucket.segment.flight.fares[priceClass.code][index];
  const factor = world.data.weekdayFactors[weekdayOf(bucket.segment.departureDate)] ?? '1';
  const dated = multiply(ladder, factor, baseScale);
  const converted = convert(world, dated, currency);
  let fare = percentOf(converted, passengerType(world, ptc).farePercent, scale);
  const corp = discounts.corporate;
  if (corp && corp.priceClasses.includes(priceClass.code))
    fare = subtract(fare, percentOf(fare, corp.percentOff, scale), scale);
  if (discounts.promotion) fare = subtract(fare, percentOf(fare, discounts.promotion.percentOff, scale), scale);
  return fare;
}

/** The departure tax of a segment for one passenger (zero when exempt or no tax). */
export function segmentTax(world: World, segment: DatedSegment, age: AgeInfo, currency: string): string {
  const tax = world.data.departureTaxes[world.countryOfAirport(segment.flight.from)];
  if (!tax || isExempt(tax, segment, age)) return zero(currency);
  return convert(world, tax.amount, currency);
}

function isExempt(tax: WorldTax, segment: DatedSegment, age: AgeInfo): boolean {
  if (tax.exemptUnderAge === undefined) return false;
  if ('birthdate' in age) return ageOn(age.birthdate, segment.departureDate) < tax.exemptUnderAge;
  return age.assumedUnder16 && tax.exemptUnderAge <= 16;
}

/** Per-passenger price of a journey in the chosen buckets. */
export function priceJourney(
  world: World,
  buckets: SegmentBucket[],
  priceClass: WorldPriceClass,
  ptc: string,
  age: AgeInfo,
  currency: string,
  discounts: Discounts,
): PassengerPrice {
  const scale = currencyScale(currency);
  const base = add(scale, ...buckets.map((b) => segmentBase(world, b, priceClass, ptc, currency, discounts)));
  const taxes = add(scale, ...buckets.map((b) => segmentTax(world, b.segment, age, currency)));
  return { base, taxes, total: add(scale, base, taxes) };
}

/**
 * The UK rule: true when some segment departs from a country whose tax depends
 * on age and a child or infant travels; then every passenger needs a Birthdate.
 */
export function birthdatesRequired(world: World, journeys: Journey[], ptcs: string[]): boolean {
  const ageTaxed = journeys.some((j) =>
    j.segments.some(
      (s) => world.data.departureTaxes[world.countryOfAirport(s.flight.from)]?.exemptUnderAge !== undefined,
    ),
  );
  return ageTaxed && ptcs.some((p) => passengerType(world, p).under16);
}

/** The world's definition of a passenger type; INVALID_REQUEST for unknown PTCs. */
export function passengerType(world: World, ptc: string) {
  const t = world.data.passengerTypes[ptc];
  if (!t)
    throw new AirlineError(
      'INVALID_REQUEST',
      `Passenger type ${ptc} is not supported; use ${Object.keys(world.data.passengerTypes).join(', ')}`,
    );
  return t;
}

export function money(value: string, currency: string): Money {
  return { value, currency };
}

export function zero(currency: string): string {
  return add(currencyScale(currency));
}

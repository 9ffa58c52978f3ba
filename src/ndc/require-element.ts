/**
 * Business-level check for data an NDC message may legally omit. The codec
 * decodes every schema-valid message, so fields the XSD makes optional are
 * optional in the model; where our logic needs one, it asks for it here and
 * gets a typed error naming the element, instead of a decode failure.
 */
import type { Amount, Money, NonMoneyPrice, Passenger, PassengerTypeCode } from './ndc.model';

/** Stable code of {@link NdcMissingElementError}. */
export const NDC_MISSING_ELEMENT = 'NDC_MISSING_ELEMENT';

/**
 * A message lacks an element (or attribute) the schema allows it to omit but
 * our logic needs. `element` is the path inside the message, e.g.
 * `Order/Status` or `Party/Sender/TravelAgencySender/Name`.
 */
export class NdcMissingElementError extends Error {
  override readonly name: string = 'NdcMissingElementError';
  readonly code = NDC_MISSING_ELEMENT;

  constructor(readonly element: string) {
    super(`the message has no ${element}, which this operation needs`);
  }
}

/** Returns `value`, or throws {@link NdcMissingElementError} naming `element` when it is absent (undefined, null or ''). */
export function requireElement<T>(value: T | undefined | null, element: string): T {
  if (value === undefined || value === null || (value as unknown) === '') throw new NdcMissingElementError(element);
  return value;
}

/** Element path of the sending agency's id, for `requireElement(rq.party.agencyId, AGENCY_ID_ELEMENT)`. */
export const AGENCY_ID_ELEMENT = 'Party/Sender/TravelAgencySender/AgencyID';

/**
 * The `PTC` of passenger `p` (optional in the XSD), for logic that prices or counts passengers by
 * type; throws {@link NdcMissingElementError} naming
 * `PassengerList/Passenger[@PassengerID='<id>']/PTC` when the message leaves it out.
 */
export function requirePtc(p: Pick<Passenger, 'passengerId' | 'ptc'>): PassengerTypeCode {
  return requireElement(p.ptc, `PassengerList/Passenger[@PassengerID='${p.passengerId}']/PTC`);
}

/** Stable code of {@link NdcNoMoneyPriceError}. */
export const NDC_NO_MONEY_PRICE = 'NDC_NO_MONEY_PRICE';

/**
 * A price the message gives in a form without a money amount (award units, cash plus units, or
 * `Equivalent`), where our logic needs money. `element` is the price element, `form` the form
 * the message chose.
 */
export class NdcNoMoneyPriceError extends Error {
  override readonly name = 'NdcNoMoneyPriceError';
  readonly code = NDC_NO_MONEY_PRICE;

  constructor(
    readonly element: string,
    readonly form: NonMoneyPrice['form'],
  ) {
    super(`the message gives ${element} as ${form}, without a money amount, which this operation needs`);
  }
}

/** Stable code of {@link NdcUnknownCurrencyError}. */
export const NDC_UNKNOWN_CURRENCY = 'NDC_UNKNOWN_CURRENCY';

/**
 * An amount without `Code` in a message whose `CurrencyMetadata` gives only decimal places (no
 * currency code), where our logic needs money: its currency is unknown, and no currency the caller
 * assumes is put in its place. A {@link NdcMissingElementError} of `<element>/@Code`, so callers
 * that handle a missing element handle it too.
 */
export class NdcUnknownCurrencyError extends NdcMissingElementError {
  override readonly name: string = 'NdcUnknownCurrencyError';
  readonly reason = NDC_UNKNOWN_CURRENCY;

  constructor(
    element: string,
    readonly decimals: number,
  ) {
    super(`${element}/@Code`);
    this.message = `the message gives ${element} without a currency (its CurrencyMetadata names none, only ${decimals} decimal places), and this operation needs one`;
  }
}

export interface RequireMoneyOptions {
  /**
   * Currency to use when the amount has none (no `Code` and no currency metadata in the message):
   * what the caller knows from elsewhere, e.g. the currency it asked for or the offer's. Default:
   * none, so a currency-less amount throws {@link NdcMissingElementError} naming `<element>/@Code`.
   */
  currency?: string;
  /** The price in a form without money, when the message gave one: it names the form in the error. */
  otherPrice?: NonMoneyPrice;
}

/**
 * The money of `amount`, with its currency: throws {@link NdcNoMoneyPriceError} when the price came
 * in a form without money (`opts.otherPrice`), {@link NdcMissingElementError} naming `element` when
 * it is absent, and naming `<element>/@Code` when neither the amount nor `opts.currency` gives a
 * currency; {@link NdcUnknownCurrencyError} when the message's metadata gave only decimal places
 * (`amount.decimals`: `opts.currency` is not assumed then).
 */
export function requireMoney(amount: Amount | undefined, element: string, opts: RequireMoneyOptions = {}): Money {
  if (amount === undefined) {
    if (opts.otherPrice !== undefined) throw new NdcNoMoneyPriceError(element, opts.otherPrice.form);
    throw new NdcMissingElementError(element);
  }
  if (amount.currency === undefined && amount.decimals !== undefined)
    throw new NdcUnknownCurrencyError(element, amount.decimals);
  const currency = amount.currency ?? opts.currency;
  if (currency === undefined || currency === '') throw new NdcMissingElementError(`${element}/@Code`);
  return { value: amount.value, currency };
}

/**
 * Reading the NDC 17.2 price choice (`TotalPrice` of offers and priced offers, `TotalAmount` of
 * offer items and fare details): `SimpleCurrencyPrice`, `DetailCurrencyPrice` (`Total` or
 * `Equivalent`, optional `Taxes/Total`), `EncodedCurrencyPrice`, `AwardPricing` and
 * `CombinationPricing`. The three money forms give an amount; the others a
 * {@link NonMoneyPrice} that says what the message chose, so that logic needing money can name it
 * (`requireMoney`, `NdcNoMoneyPriceError`).
 */
import type { Amount, NonMoneyPrice } from './ndc.model';
import { decodeMoney, one, opt, reqText, text, type MessageCurrency, type XNode } from './xml';

/** What a price choice holds: an amount (money forms), the taxes of a DetailCurrencyPrice, or another form. */
export interface DecodedPrice {
  amount?: Amount;
  taxes?: Amount;
  other?: NonMoneyPrice;
}

/** `Redemption/Unit` and `Redemption/Quantity` (both required by the XSD). */
function decodeRedemption(node: XNode, path: string): { unit: string; quantity: string } {
  const r = one(node, 'Redemption', path);
  const rPath = `${path}/Redemption`;
  return { unit: reqText(r, 'Unit', rPath), quantity: reqText(r, 'Quantity', rPath) };
}

/**
 * Reads the price choice inside `node` (a `TotalPrice` or `TotalAmount` element). `currency` is the
 * message's currency for amounts without `Code`. Content in none of the five forms gives `{}`.
 */
export function decodePrice(node: XNode, path: string, currency: MessageCurrency): DecodedPrice {
  const simple = opt(node, 'SimpleCurrencyPrice');
  if (simple !== undefined) return { amount: decodeMoney(simple, `${path}/SimpleCurrencyPrice`, currency) };
  const encoded = opt(node, 'EncodedCurrencyPrice');
  if (encoded !== undefined) return { amount: decodeMoney(encoded, `${path}/EncodedCurrencyPrice`, currency) };
  const detail = opt(node, 'DetailCurrencyPrice');
  if (detail !== undefined) {
    const dPath = `${path}/DetailCurrencyPrice`;
    const out: DecodedPrice = {};
    const total = opt(detail, 'Total');
    if (total !== undefined) out.amount = decodeMoney(total, `${dPath}/Total`, currency);
    else {
      const eq = opt(detail, 'Equivalent');
      out.other = { form: 'Equivalent', ...(eq !== undefined && text(eq) !== '' ? { equivalent: text(eq) } : {}) };
    }
    const taxes = opt(detail, 'Taxes');
    const taxTotal = taxes === undefined ? undefined : opt(taxes, 'Total');
    if (taxTotal !== undefined) out.taxes = decodeMoney(taxTotal, `${dPath}/Taxes/Total`, currency);
    return out;
  }
  const award = opt(node, 'AwardPricing');
  if (award !== undefined) {
    return { other: { form: 'AwardPricing', redemption: decodeRedemption(award, `${path}/AwardPricing`) } };
  }
  const combination = opt(node, 'CombinationPricing');
  if (combination !== undefined) {
    const cPath = `${path}/CombinationPricing`;
    const partial = one(combination, 'Partial', cPath);
    const pPath = `${cPath}/Partial`;
    const cash = one(partial, 'Currency', pPath);
    const cashNode = opt(cash, 'EncodedCurrencyAmount') ?? opt(cash, 'SimpleCurrencyPrice');
    const cashName = opt(cash, 'EncodedCurrencyAmount') !== undefined ? 'EncodedCurrencyAmount' : 'SimpleCurrencyPrice';
    const other: NonMoneyPrice = { form: 'CombinationPricing', redemption: decodeRedemption(partial, pPath) };
    if (cashNode !== undefined) other.cashPart = decodeMoney(cashNode, `${pPath}/Currency/${cashName}`, currency);
    return { other };
  }
  return {};
}

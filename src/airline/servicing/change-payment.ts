/**
 * The money of an OrderChangeRQ (docs/airline-service.md, "Servicing orders"): what is due (a held
 * order's total, or a change's positive difference) is paid by exactly one card payment of that
 * amount plus the card surcharge of OrderCreate (CCF2, 2 % for credit cards, none for debit);
 * nothing due means no payment; a negative difference is refunded, never more than was paid.
 */
import { add, compare, currencyScale, equals, subtract } from '../../common/decimal';
import type { Money, MoneyOfferItem, OrderPayment, Passenger, Penalty } from '../../ndc/ndc.model';
import { requireElement, requireMoney } from '../../ndc/require-element';
import { AirlineError } from '../airline.errors';
import type { TokenInfo, TokenLookup } from '../airline.ports';
import { CCF2_SERVICE_ID } from '../offer-price/offer-price.service';
import type { World } from '../world/world';
import { serviceDefinitionId } from '../world/world.lists';
import type { Settlement } from './order-content';
import { removalPenalty } from './removal';
import { cardSurcharge } from './servicing.rules';
import type { ChangePlan, OrderCharge, OrderContent } from './servicing.types';

/** Where an OrderChangeRQ carries its payment's token. */
const VOUCHER = 'Query/Payments/Payment/Method/Voucher/Number';

/** The payment a change takes: the charge (surcharge included) and the surcharge. */
export interface ChangePayment {
  charge?: OrderCharge;
  surcharge?: Money;
}

/**
 * Checks `payments` against `due` (at `now`): nothing due takes no payment (742); something due
 * takes exactly one card payment (750) whose token exists (752) and has not expired (751), in the
 * order's currency (743), of `due` plus the card's surcharge (742 naming the amount).
 */
export function checkChangePayment(
  world: World,
  tokens: TokenLookup,
  payments: readonly OrderPayment[],
  due: Money,
  now: Date,
): ChangePayment {
  if (compare(due.value, '0') <= 0) {
    if (payments.length > 0)
      throw new AirlineError('PAYMENT_AMOUNT_MISMATCH', 'Nothing is due for this change: send it without Payments');
    return {};
  }
  if (payments.length !== 1) {
    if (payments.length === 0)
      throw new AirlineError(
        'PAYMENT_AMOUNT_MISMATCH',
        `${due.value} ${due.currency} is due: send one Payment (card token) with the change`,
      );
    throw new AirlineError('INVALID_CARD', `Send exactly one Payment (got ${payments.length})`);
  }
  const payment = payments[0];
  if (payment.type !== 'CC')
    throw new AirlineError('INVALID_CARD', `Payment type ${payment.type} is not supported; use CC`);
  const token = usableToken(tokens, requireElement(payment.voucherNumber, VOUCHER), now);
  const surcharge = cardSurcharge(world, due, token.funding);
  const expected = surcharge
    ? { value: add(currencyScale(due.currency), due.value, surcharge.value), currency: due.currency }
    : due;
  const paid = requireMoney(payment.amount, 'Query/Payments/Payment/Amount', { currency: due.currency });
  if (paid.currency !== due.currency) {
    throw new AirlineError(
      'PAYMENT_CURRENCY_MISMATCH',
      `Payment currency ${paid.currency} differs from the order currency ${due.currency}; pay in ${due.currency}`,
    );
  }
  if (!equals(paid.value, expected.value)) {
    const fee = surcharge
      ? ` (${due.value} due and the ${surcharge.value} CCF2 surcharge of credit card ${token.maskedNumber})`
      : '';
    throw new AirlineError(
      'PAYMENT_AMOUNT_MISMATCH',
      `Payment amount ${paid.value} ${paid.currency} differs from the amount to pay ${expected.value} ${expected.currency}${fee}`,
    );
  }
  return { charge: { type: 'CC', amount: expected, voucherNumber: token.id }, ...(surcharge ? { surcharge } : {}) };
}

function usableToken(tokens: TokenLookup, id: string, now: Date): TokenInfo {
  const token = tokens.getToken(id);
  if (!token) throw new AirlineError('UNKNOWN_TOKEN', 'Card token of the payment not found');
  if (Date.parse(token.expiresAt) <= now.getTime())
    throw new AirlineError('TOKEN_EXPIRED', `Card token ${token.id} expired at ${token.expiresAt}`);
  return token;
}

/** The order item of a change payment's card surcharge (`<OrderID>-CCF2-V<version>`), for every passenger. */
export function surchargeItem(
  world: World,
  id: string,
  surcharge: Money,
  passengers: readonly Passenger[],
): MoneyOfferItem {
  const zero = { value: add(currencyScale(surcharge.currency), '0'), currency: surcharge.currency };
  return {
    offerItemId: id,
    priceDetail: { total: surcharge, base: surcharge, taxes: zero },
    services: [
      {
        serviceId: CCF2_SERVICE_ID,
        passengerRefs: passengers.map((p) => p.passengerId),
        serviceDefinitionRef: { ref: serviceDefinitionId(world.data.cardSurcharge.service) },
      },
    ],
    fareDetails: [],
  };
}

/**
 * What applying `plan` (version `version` after it) does with the money: the charge, the refund of
 * a negative difference (at most what was paid), and the PenaltyList entry of a flight change
 * (`PEN__CHANGE_V<n>`: `Change` fee, `Refund`) or a removal (`PEN__REMOVE_V<n>`: `Cancellation`
 * fee, `Refund`).
 */
export function settlementOf(
  content: OrderContent,
  plan: ChangePlan | undefined,
  payment: ChangePayment,
  version: number,
): Settlement {
  const settlement: Settlement = payment.charge ? { charge: payment.charge } : {};
  if (!plan) return settlement;
  const scale = currencyScale(content.currency);
  const owed = subtract('0', plan.difference.value, scale);
  const refundValue =
    compare(owed, '0') <= 0 ? add(scale, '0') : compare(owed, content.paid.value) > 0 ? content.paid.value : owed;
  const refund = { value: refundValue, currency: content.currency };
  if (compare(refundValue, '0') > 0) settlement.refund = refund;
  const moved = compare(plan.penalty.value, '0') > 0 || compare(refundValue, '0') > 0;
  if (plan.kind === 'passengers') settlement.penalty = removalPenalty(plan.penalty, refund, `PEN__REMOVE_V${version}`);
  else if (plan.kind === 'flights' && moved) settlement.penalty = changePenalty(plan.penalty, refund, version);
  return settlement;
}

function changePenalty(fee: Money, refund: Money, version: number): Penalty {
  return {
    penaltyId: `PEN__CHANGE_V${version}`,
    changeFee: compare(fee.value, '0') > 0,
    refundable: compare(refund.value, '0') > 0,
    details: [
      { type: 'Change', amount: fee },
      { type: 'Refund', amount: refund },
    ],
  };
}

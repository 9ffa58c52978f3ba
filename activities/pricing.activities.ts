/**
 * Pricing activities: `price` (OfferPriceRQ of the chosen offers, with any extras), `tokenise`
 * (the card to a token at the payment interface; the only activity that sees card data) and
 * `repriceWithToken` (the same OfferPriceRQ with the token: the airline adds the card fee).
 */
import { ApplicationFailure } from '@temporalio/activity';
import { FailureType, type FailureDetails } from '../src/booking/booking.failures';
import type { PaymentCard } from '../src/booking/booking.model';
import { offerPriceRq, passengerIds, type NdcContext } from '../src/booking/intent-to-ndc';
import { cardSurcharge } from '../src/booking/card-surcharge';
import { pricedExtras, seatWarnings } from '../src/booking/extras-from-ndc';
import { requireElement, requireMoney } from '../src/ndc/require-element';
import type { OfferPriceSuccess } from '../src/ndc-client';
import type { AirlineCall } from './airline-call';
import type { PriceInput, PriceResult, RepriceInput, TokeniseInput, TokenResult } from './booking.activities.types';
import { selectedItems } from './shopping.activities';

export function createPricingActivities(call: AirlineCall) {
  const { client, stamp, options, run } = call;

  async function price(input: PriceInput): Promise<PriceResult> {
    return run(async (attempt) =>
      priceResult(
        await client.offerPrice(offerPriceRq(input.ctx, stamp(input.ctx), input.offers), options(input.ctx)),
        attempt,
        input.ctx,
      ),
    );
  }

  async function repriceWithToken(input: RepriceInput): Promise<PriceResult> {
    return run(async (attempt) =>
      priceResult(
        await client.offerPrice(
          offerPriceRq(input.ctx, stamp(input.ctx), input.offers, input.tokenId),
          options(input.ctx),
        ),
        attempt,
        input.ctx,
      ),
    );
  }

  async function tokenise(input: TokeniseInput): Promise<TokenResult> {
    const { card } = input;
    const expiryDateTimeUTC = utcNoZone(new Date(call.now().getTime() + call.tokenTtlMs));
    return run(
      async (attempt) => {
        const token = await client.createToken(
          { expiryDateTimeUTC, card: tokenCard(card) },
          { correlationId: input.correlationId },
          { funding: input.funding === true },
        );
        return { tokenId: token.id, ...(token.funding !== undefined ? { funding: token.funding } : {}), attempt };
      },
      { card },
    ).catch((error: unknown) => {
      // A 400 from the token endpoint is invalid card data.
      if (
        error instanceof ApplicationFailure &&
        error.nonRetryable &&
        (error.details?.[0] as FailureDetails | undefined)?.httpStatus === 400
      ) {
        throw ApplicationFailure.create({
          message: error.message,
          type: FailureType.INVALID_CARD,
          nonRetryable: true,
          details: error.details ?? [],
          ...(error.cause !== undefined ? { cause: error.cause } : {}),
        });
      }
      throw error;
    });
  }

  return { price, repriceWithToken, tokenise };
}

/** The card as the token resource takes it. */
function tokenCard(card: PaymentCard) {
  const { addressLine2, stateOrProvince } = card.address;
  return {
    number: card.number,
    name: card.name,
    address: {
      addressLine1: card.address.addressLine1,
      ...(addressLine2 !== undefined ? { addressLine2 } : {}),
      postalCode: card.address.postalCode,
      cityName: card.address.cityName,
      ...(stateOrProvince !== undefined ? { stateOrProvince } : {}),
      countryCode: card.address.countryCode,
    },
    expirationYear: card.expirationYear,
    expirationMonth: card.expirationMonth,
    verificationCode: card.verificationCode,
  };
}

/**
 * The pricing's summary. `currency` (the one the booking asked for) is that of amounts the airline
 * sent without `Code` and without currency metadata. A total in award units is `NdcNoMoneyPriceError`.
 */
function priceResult(rs: OfferPriceSuccess, attempt: number, ctx: NdcContext): PriceResult {
  const { currency } = ctx;
  const priced = rs.pricedOffer;
  const extras = pricedExtras(rs, passengerIds(ctx.passengers), currency);
  const warnings = seatWarnings(rs);
  const total = requireMoney(priced.total, 'PricedOffer/TotalPrice', { currency, otherPrice: priced.otherPrice });
  const surcharge = cardSurcharge({ total, offerItems: priced.offerItems });
  return {
    responseId: requireElement(rs.shoppingResponseId, 'ShoppingResponseID/ResponseID'),
    offerId: priced.offerId,
    owner: priced.owner,
    total,
    ...(surcharge !== undefined ? { surcharge } : {}),
    offerItems: selectedItems(priced.offerItems),
    ...(extras.length > 0 ? { extras } : {}),
    ...(warnings.length > 0 ? { seatWarnings: warnings } : {}),
    attempt,
  };
}

/** `YYYY-MM-DDThh:mm:ss` in UTC (the token resource's date-time form). */
function utcNoZone(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/**
 * The OrderReshopRQ as this airline reads it: the codec's model plus the payment card a seller
 * names to learn a payment's card surcharge (`Add/Qualifier/PaymentCardQualifiers`: `Type`, the
 * card brand code, and `IIN_Number`, the card's first six digits). OrderReshopRQ 17.2 has no
 * Metadata, so a card token (OfferPriceRQ's PaymentFormMetadata) cannot travel in it; the codec
 * does not model PaymentCardQualifiers yet, so they are read here from the same document.
 */
import { type ParseOptions, decodeOrderReshopRq, many, one, opt, optText, parseNdc } from '../../ndc';
import type { OrderReshopRq } from '../../ndc/servicing.model';

/** `PaymentCardQualifiers`: a card brand (`Type`, two letters) and its IIN (six digits), when given. */
export interface PaymentCardQualifier {
  type: string;
  iin?: string;
}

/** An OrderReshopRQ with the payment card it names, if any. */
export interface ReshopRequest extends OrderReshopRq {
  card?: PaymentCardQualifier;
}

/** Decodes an OrderReshopRQ (any binding) with its first `Add/Qualifier/PaymentCardQualifiers`; throws NdcDecodeError. */
export function decodeReshopRequest(xml: string, opts: ParseOptions): ReshopRequest {
  const rq = decodeOrderReshopRq(xml, opts);
  const card = paymentCardQualifier(xml, opts);
  return card === undefined ? rq : { ...rq, card };
}

function paymentCardQualifier(xml: string, opts: ParseOptions): PaymentCardQualifier | undefined {
  const { node, path } = parseNdc(xml, 'OrderReshopRQ', opts);
  const reshop = opt(one(node, 'Query', path), 'Reshop');
  const servicing = reshop && opt(reshop, 'OrderServicing');
  const add = servicing && opt(servicing, 'Add');
  for (const qualifier of add ? many(add, 'Qualifier') : []) {
    const card = opt(qualifier, 'PaymentCardQualifiers');
    const type = card && optText(card, 'Type');
    if (card && type) {
      const iin = optText(card, 'IIN_Number');
      return iin ? { type, iin } : { type };
    }
  }
  return undefined;
}

/**
 * The airline's view of the NDC codec: decode a request by its root element,
 * encode a response by its root element.
 */
import {
  decodeAirShoppingRq,
  decodeOfferPriceRq,
  decodeOrderCreateRq,
  decodeOrderRetrieveRq,
  encodeAirShoppingRs,
  encodeOfferPriceRs,
  encodeOrderViewRs,
} from '../../ndc';
import type {
  AirShoppingRq,
  AirShoppingRs,
  OfferPriceRq,
  OfferPriceRs,
  OrderCreateRq,
  OrderRetrieveRq,
  OrderViewRs,
} from '../../ndc/ndc.model';

export type RqRoot = 'AirShoppingRQ' | 'OfferPriceRQ' | 'OrderCreateRQ' | 'OrderRetrieveRQ';
export type RsRoot = 'AirShoppingRS' | 'OfferPriceRS' | 'OrderViewRS';
export type NdcRequest = AirShoppingRq | OfferPriceRq | OrderCreateRq | OrderRetrieveRq;
export type NdcResponse = AirShoppingRs | OfferPriceRs | OrderViewRs;

const DECODERS: Record<RqRoot, (xml: string) => NdcRequest> = {
  AirShoppingRQ: decodeAirShoppingRq,
  OfferPriceRQ: decodeOfferPriceRq,
  OrderCreateRQ: decodeOrderCreateRq,
  OrderRetrieveRQ: decodeOrderRetrieveRq,
};

/** Decodes request `xml` whose root element is `root` (throws NdcDecodeError). */
export function decodeRq(root: RqRoot, xml: string): NdcRequest {
  return DECODERS[root](xml);
}

/** Encodes response `model` as a document with root `root`. */
export function encodeRs(root: RsRoot, model: NdcResponse): string {
  switch (root) {
    case 'AirShoppingRS':
      return encodeAirShoppingRs(model as AirShoppingRs);
    case 'OfferPriceRS':
      return encodeOfferPriceRs(model as OfferPriceRs);
    case 'OrderViewRS':
      return encodeOrderViewRs(model as OrderViewRs);
  }
}

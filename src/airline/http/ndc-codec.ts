/**
 * The airline's view of the NDC codec: decode a request by its root element,
 * encode a response by its root element.
 */
import * as ndc from '../../ndc';
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

type Fn = (x: unknown) => unknown;

// Looked up by name so the service builds while codec files land one by one.
const codec = ndc as unknown as Record<string, Fn | undefined>;

const DECODERS: Record<RqRoot, string> = {
  AirShoppingRQ: 'decodeAirShoppingRq',
  OfferPriceRQ: 'decodeOfferPriceRq',
  OrderCreateRQ: 'decodeOrderCreateRq',
  OrderRetrieveRQ: 'decodeOrderRetrieveRq',
};

const ENCODERS: Record<RsRoot, string> = {
  AirShoppingRS: 'encodeAirShoppingRs',
  OfferPriceRS: 'encodeOfferPriceRs',
  OrderViewRS: 'encodeOrderViewRs',
};

function lookup(name: string): Fn {
  const f = codec[name];
  if (typeof f !== 'function') throw new Error(`NDC codec function ${name} is not available`);
  return f;
}

/** Decodes request `xml` whose root element is `root` (throws NdcDecodeError). */
export function decodeRq(root: string, xml: string): NdcRequest {
  return lookup(DECODERS[root as RqRoot])(xml) as NdcRequest;
}

/** Encodes response `model` as a document with root `root`. */
export function encodeRs(root: RsRoot, model: NdcResponse): string {
  return lookup(ENCODERS[root])(model) as string;
}

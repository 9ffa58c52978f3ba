/**
 * The airline's view of the NDC codec: decode a request by its root element,
 * encode a response by its root element, with the configured extension
 * namespace and size limit.
 */
import {
  type EncodeOptions,
  type ParseOptions,
  decodeAirShoppingRq,
  decodeCustomerInputRs,
  decodeOfferPriceRq,
  decodeOrderCancelRq,
  decodeOrderCreateRq,
  decodeOrderRetrieveRq,
  decodeSeatAvailabilityRq,
  decodeServiceListRq,
  encodeAirShoppingRs,
  encodeCustomerInputRq,
  encodeOfferPriceRs,
  encodeOrderCancelRs,
  encodeOrderViewRs,
  encodeSeatAvailabilityRs,
  encodeServiceListRs,
} from '../../ndc';
import type { SeatAvailabilityRq, SeatAvailabilityRs, ServiceListRq, ServiceListRs } from '../../ndc/extras.model';
import type {
  AirShoppingRq,
  AirShoppingRs,
  CustomerInputRq,
  CustomerInputRs,
  OfferPriceRq,
  OfferPriceRs,
  OrderCancelRq,
  OrderCancelRs,
  OrderCreateRq,
  OrderRetrieveRq,
  OrderViewRs,
} from '../../ndc/ndc.model';

/**
 * Roots of the messages clients send. CustomerInputRS is one: the client's answer to the
 * airline's CustomerInputRQ, sent to `/retail/orders` and answered with OrderViewRS.
 */
export type RqRoot =
  | 'AirShoppingRQ'
  | 'OfferPriceRQ'
  | 'OrderCreateRQ'
  | 'OrderRetrieveRQ'
  | 'OrderCancelRQ'
  | 'CustomerInputRS'
  | 'ServiceListRQ'
  | 'SeatAvailabilityRQ';
/** Roots of the airline's answers; CustomerInputRQ answers an OrderCreateRQ whose card needs 3-D Secure. */
export type RsRoot =
  | 'AirShoppingRS'
  | 'OfferPriceRS'
  | 'OrderViewRS'
  | 'OrderCancelRS'
  | 'CustomerInputRQ'
  | 'ServiceListRS'
  | 'SeatAvailabilityRS';
export type NdcRequest =
  | AirShoppingRq
  | OfferPriceRq
  | OrderCreateRq
  | OrderRetrieveRq
  | OrderCancelRq
  | CustomerInputRs
  | ServiceListRq
  | SeatAvailabilityRq;
export type NdcResponse =
  AirShoppingRs | OfferPriceRs | OrderViewRs | OrderCancelRs | CustomerInputRq | ServiceListRs | SeatAvailabilityRs;

/** True for the airline's 3-D Secure challenge (the one answer model without `kind`). */
export function isCustomerInputRq(rs: NdcResponse): rs is CustomerInputRq {
  return !('kind' in rs) && 'securePayments' in rs;
}

/** The response root answering each request root. */
export const RESPONSE_ROOT: Record<RqRoot, RsRoot> = {
  AirShoppingRQ: 'AirShoppingRS',
  OfferPriceRQ: 'OfferPriceRS',
  OrderCreateRQ: 'OrderViewRS',
  OrderRetrieveRQ: 'OrderViewRS',
  OrderCancelRQ: 'OrderCancelRS',
  CustomerInputRS: 'OrderViewRS',
  ServiceListRQ: 'ServiceListRS',
  SeatAvailabilityRQ: 'SeatAvailabilityRS',
};

const DECODERS: Record<RqRoot, (xml: string, opts: ParseOptions) => NdcRequest> = {
  AirShoppingRQ: decodeAirShoppingRq,
  OfferPriceRQ: decodeOfferPriceRq,
  OrderCreateRQ: decodeOrderCreateRq,
  OrderRetrieveRQ: decodeOrderRetrieveRq,
  OrderCancelRQ: decodeOrderCancelRq,
  CustomerInputRS: decodeCustomerInputRs,
  ServiceListRQ: decodeServiceListRq,
  SeatAvailabilityRQ: decodeSeatAvailabilityRq,
};

/** Decodes request `xml` (plain or in a SOAP envelope) whose root element is `root` (throws NdcDecodeError). */
export function decodeRq(root: RqRoot, xml: string, opts: ParseOptions): NdcRequest {
  return DECODERS[root](xml, opts);
}

/** Encodes response `model` as a document with root `root`. */
export function encodeRs(root: RsRoot, model: NdcResponse, opts: EncodeOptions): string {
  switch (root) {
    case 'AirShoppingRS':
      return encodeAirShoppingRs(model as AirShoppingRs, opts);
    case 'OfferPriceRS':
      return encodeOfferPriceRs(model as OfferPriceRs, opts);
    case 'OrderViewRS':
      return encodeOrderViewRs(model as OrderViewRs, opts);
    case 'OrderCancelRS':
      return encodeOrderCancelRs(model as OrderCancelRs, opts);
    case 'CustomerInputRQ':
      return encodeCustomerInputRq(model as CustomerInputRq, opts);
    case 'ServiceListRS':
      return encodeServiceListRs(model as ServiceListRs, opts);
    case 'SeatAvailabilityRS':
      return encodeSeatAvailabilityRs(model as SeatAvailabilityRs, opts);
  }
}

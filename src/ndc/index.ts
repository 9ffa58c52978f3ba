export * from './ndc.model';
export * from './ndc-decode-error';
export * from './xml';
export * from './common.codec';
export * from './air-shopping-rq.codec';
export * from './offer-price-rq.codec';
export * from './order-create-rq.codec';
export * from './order-retrieve-rq.codec';
export * from './data-lists.codec';
export * from './metadata.codec';
export * from './price.codec';
export * from './air-shopping-rs.codec';
export * from './offer-price-rs.codec';
export * from './order-view-rs.codec';
export * from './order.codec';
export * from './references';
export * from './order-cancel-rq.codec';
export * from './order-cancel-rs.codec';
export * from './require-element';
export * from './soap';
export { ANY_NAMESPACE, NDC_MESSAGE_ROOTS } from './document-namespace';
export * from './response-frame';
export * from './secure-payment.codec';
export * from './customer-input-rq.codec';
export * from './customer-input-rs.codec';
export * from './cancellation-penalty';
// The à-la-carte offer of ServiceList / SeatAvailability keeps its own model (extras.model.ts);
// ndc.model.ts's ALaCarteOffer is OfferPriceRS's OtherOffers one.
export { SEAT_STATUS } from './extras.model';
export type {
  SeatAvailabilityOffer,
  SeatAvailabilityOrder,
  SeatAvailabilityRq,
  SeatAvailabilityRs,
  SeatMap,
  SeatMapCabin,
  SeatMapRow,
  SeatMapSeat,
  ServiceListOffer,
  ServiceListRq,
  ServiceListRs,
} from './extras.model';
export * from './a-la-carte-offer.codec';
export * from './service-list-rq.codec';
export * from './service-list-rs.codec';
export * from './seat-availability-rq.codec';
export * from './seat-availability-rs.codec';
export * from './servicing.model';
export * from './order-reshop-rq.codec';
export * from './order-reshop-rs.codec';
export * from './order-servicing';
export * from './order-change-rq.codec';
export * from './order-change-notif.codec';

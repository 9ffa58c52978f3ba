export * from './ndc.model';
export * from './ndc-decode-error';
export * from './xml';
export * from './common.codec';
export * from './air-shopping-rq.codec';
export * from './offer-price-rq.codec';
export * from './order-create-rq.codec';
export * from './order-retrieve-rq.codec';

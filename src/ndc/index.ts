export * from './ndc.model';
export * from './ndc-decode-error';
export * from './xml';
export * from './common.codec';
export * from './air-shopping-rq.codec';

export * from './ndc.model';
export * from './ndc-decode-error';
export * from './xml';

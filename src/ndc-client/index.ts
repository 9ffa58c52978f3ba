export * from './ndc-client';
export * from './ndc-client.errors';
export * from './ndc-client.config';
export * from './order-change-notification';
export * from './circuit-breaker';

/** Nest injection tokens of the airline application. */
export const AIRLINE_CONFIG = Symbol('AIRLINE_CONFIG');
export const AIRLINE_CLOCK = Symbol('AIRLINE_CLOCK');
export const AIRLINE_WORLD = Symbol('AIRLINE_WORLD');
/** The domain services the NDC operations call (`RetailDomain`, http/retail.operations.ts). */
export const RETAIL_DOMAIN = Symbol('RETAIL_DOMAIN');

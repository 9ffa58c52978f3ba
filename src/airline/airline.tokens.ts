/** Nest injection tokens of the airline application. */
export const AIRLINE_CONFIG = Symbol('AIRLINE_CONFIG');
export const AIRLINE_CLOCK = Symbol('AIRLINE_CLOCK');
export const AIRLINE_WORLD = Symbol('AIRLINE_WORLD');

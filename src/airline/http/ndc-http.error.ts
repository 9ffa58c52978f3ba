/**
 * What ends an exchange at the HTTP edge before (or instead of) the domain's answer. The
 * exception filter turns each into its HTTP answer; the domain's own failures are
 * `AirlineError`s (airline.errors.ts).
 */
import type { NdcError } from '../../ndc/ndc.model';

/**
 * A request that is not a usable NDC message: answered `status` with `error` as an NDC error
 * message of the exchange's response root, in the request's binding, echoing its ids.
 */
export class NdcRequestError extends Error {
  constructor(
    readonly status: number,
    readonly error: NdcError,
    /** Extra response headers (e.g. `Connection: close` after a 413). */
    readonly headers: Record<string, string> = {},
  ) {
    super(error.text ?? `HTTP ${status}`);
  }
}

/** No acceptable XML media type in Accept: 406 with a plain-text body. */
export class NotAcceptableError extends Error {
  readonly code = 'NOT_ACCEPTABLE';
}

/** A fault of the simulator ending the exchange: `http500` answers 500, `reset` destroys the connection. */
export class SimulatedFault extends Error {
  constructor(readonly effect: 'http500' | 'reset') {
    super(`simulated fault ${effect}`);
  }
}

/** A JSON endpoint's refusal: answered `status` with `{code, description}`. */
export class JsonHttpError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

/**
 * What ends an exchange before (or instead of) the domain's answer. The
 * exception filter turns each into its HTTP answer.
 */
import type { NdcBinding } from '../../ndc';
import type { NdcError } from '../../ndc/ndc.model';
import type { RsRoot } from './ndc-codec';

/** Request identifiers echoed into the response root. */
export interface EchoIds {
  transactionIdentifier?: string;
  correlationId?: string;
}

/** A request that is not a usable NDC message: answered `status` with an NDC error message of `root`. */
export class NdcHttpError extends Error {
  constructor(
    readonly status: number,
    readonly root: RsRoot,
    readonly errors: NdcError[],
    readonly echo: EchoIds,
    /** Extra response headers (e.g. `Connection: close` after a 413). */
    readonly headers: Record<string, string> = {},
    /** Binding of the request (the answer's), when it could be told. */
    readonly binding: NdcBinding = 'plain',
  ) {
    super(errors[0]?.text ?? `HTTP ${status}`);
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

/**
 * Fault simulator: lets client developers arm failures for the next N calls of
 * an operation (POST /_sim/faults), for every agency or for one. Disabled when
 * NODE_ENV=production.
 */
import { z } from 'zod';
import { airlineErrorName } from '../airline.errors';

/**
 * The simulator operation of the payment interface (`POST /payment/tokens`). The others are the
 * NDC operations, named by the registry (http/retail.operations.ts): the airline passes them all
 * to {@link FaultService}.
 */
export const TOKEN_OPERATION = 'Token';

/** An operation faults can be armed for: `Token` or an NDC operation's name (`OrderCreate`, ...). */
export type FaultOperation = string;

export const FAULT_MODES = [
  'http500',
  'reset',
  'delay',
  'commit-then-timeout',
  'commit-then-500',
  'late-commit',
  'lookup-by-pricing-id-only',
  'ndc-error',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

/** Modes that change how the GET of orders looks orders up instead of failing the call. */
export const LOOKUP_MODES: readonly FaultMode[] = ['lookup-by-pricing-id-only'];

/** Default delay per mode when delayMs is 0 or absent: `delay` 1 s, `commit-then-timeout` 120 s, `late-commit` 30 s. */
export const DEFAULT_DELAY_MS: Record<FaultMode, number> = {
  http500: 0,
  reset: 0,
  delay: 1000,
  'commit-then-timeout': 120_000,
  'commit-then-500': 0,
  'late-commit': 30_000,
  'lookup-by-pricing-id-only': 0,
  'ndc-error': 0,
};

/** The schema of a fault definition (`POST /_sim/faults`) whose operation is one of `operations`. */
export function armFaultSchema(operations: readonly [FaultOperation, ...FaultOperation[]]) {
  return z
    .object({
      operation: z.enum(operations),
      mode: z.enum(FAULT_MODES),
      count: z.number().int().min(1).max(1000).default(1),
      delayMs: z.number().int().min(0).max(600_000).default(0),
      /** Only requests of this agency (TravelAgencySender/AgencyID, `agencyID` of the GET or the token JSON). */
      agencyId: z.string().min(1).max(64).optional(),
      /** Mode `ndc-error`: the airline's NDC error code to answer with (docs/airline-world.md), e.g. `711`. */
      errorCode: z.string().optional(),
    })
    .strict()
    .superRefine((f, ctx) => {
      if (LOOKUP_MODES.includes(f.mode) && f.operation !== 'OrderRetrieve') {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['operation'],
          message: `must be OrderRetrieve for mode ${f.mode}`,
        });
      }
      if ((f.mode === 'ndc-error') !== (f.errorCode !== undefined)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['errorCode'],
          message: f.mode === 'ndc-error' ? 'is required with mode ndc-error' : 'is only for mode ndc-error',
        });
      } else if (f.errorCode !== undefined && airlineErrorName(f.errorCode) === undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['errorCode'],
          message: 'is not an error code of this airline',
        });
      } else if (f.mode === 'ndc-error' && f.operation === TOKEN_OPERATION) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['operation'],
          message: 'must be an NDC operation for mode ndc-error',
        });
      }
    });
}

export type ArmFault = z.infer<ReturnType<typeof armFaultSchema>>;

/** One armed fault and how many calls it still affects. */
export interface ArmedFault {
  operation: FaultOperation;
  mode: FaultMode;
  remaining: number;
  delayMs: number;
  /** Absent: every agency's calls. */
  agencyId?: string;
  /** Mode `ndc-error`: the code answered. */
  errorCode?: string;
}

export class FaultService {
  private armed: ArmedFault[] = [];
  /** The schema of a fault definition for this simulator's operations. */
  readonly schema: ReturnType<typeof armFaultSchema>;

  /** A simulator of the faults of `operations`. */
  constructor(readonly operations: readonly [FaultOperation, ...FaultOperation[]]) {
    this.schema = armFaultSchema(operations);
  }

  /** Arms a fault; faults of one operation apply in the order they were armed. */
  arm(f: ArmFault): ArmedFault {
    const delayMs = f.delayMs > 0 ? f.delayMs : DEFAULT_DELAY_MS[f.mode];
    const armed: ArmedFault = { operation: f.operation, mode: f.mode, remaining: f.count, delayMs };
    if (f.agencyId !== undefined) armed.agencyId = f.agencyId;
    if (f.errorCode !== undefined) armed.errorCode = f.errorCode;
    this.armed.push(armed);
    return { ...armed };
  }

  list(): ArmedFault[] {
    return this.armed.map((f) => ({ ...f }));
  }

  clear(): void {
    this.armed = [];
  }

  /**
   * Takes one call's worth of the first fault armed for `operation` that
   * applies to `agencyId` (faults armed without an agency apply to all) and
   * whose mode `applies` to this call, if any.
   */
  take(
    operation: FaultOperation,
    agencyId: string | undefined,
    applies: (mode: FaultMode) => boolean = () => true,
  ): ArmedFault | undefined {
    const i = this.armed.findIndex(
      (f) => f.operation === operation && (f.agencyId === undefined || f.agencyId === agencyId) && applies(f.mode),
    );
    if (i < 0) return undefined;
    const f = this.armed[i];
    f.remaining -= 1;
    if (f.remaining <= 0) this.armed.splice(i, 1);
    return { ...f };
  }
}

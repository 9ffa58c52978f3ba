/**
 * Fault simulator: lets client developers arm failures for the next N calls of
 * an operation (POST /_sim/faults). Disabled when NODE_ENV=production.
 */
import { z } from 'zod';

export const FAULT_OPERATIONS = ['AirShopping', 'OfferPrice', 'OrderCreate', 'OrderRetrieve', 'Token'] as const;
export type FaultOperation = (typeof FAULT_OPERATIONS)[number];

export const FAULT_MODES = ['http500', 'reset', 'delay', 'commit-then-timeout', 'commit-then-500'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

/** Default delay of `delay` (1 s) and of `commit-then-timeout` (120 s) when delayMs is 0 or absent. */
export const DEFAULT_DELAY_MS: Record<FaultMode, number> = {
  http500: 0,
  reset: 0,
  delay: 1000,
  'commit-then-timeout': 120_000,
  'commit-then-500': 0,
};

export const armFaultSchema = z
  .object({
    operation: z.enum(FAULT_OPERATIONS),
    mode: z.enum(FAULT_MODES),
    count: z.number().int().min(1).max(1000).default(1),
    delayMs: z.number().int().min(0).max(600_000).default(0),
  })
  .strict();

export type ArmFault = z.infer<typeof armFaultSchema>;

/** One armed fault and how many calls it still affects. */
export interface ArmedFault {
  operation: FaultOperation;
  mode: FaultMode;
  remaining: number;
  delayMs: number;
}

export class FaultService {
  private armed: ArmedFault[] = [];

  /** Arms a fault; faults of one operation apply in the order they were armed. */
  arm(f: ArmFault): ArmedFault {
    const delayMs = f.delayMs > 0 ? f.delayMs : DEFAULT_DELAY_MS[f.mode];
    const armed: ArmedFault = { operation: f.operation, mode: f.mode, remaining: f.count, delayMs };
    this.armed.push(armed);
    return { ...armed };
  }

  list(): ArmedFault[] {
    return this.armed.map((f) => ({ ...f }));
  }

  clear(): void {
    this.armed = [];
  }

  /** Takes one call's worth of the first fault armed for `operation`, if any. */
  take(operation: FaultOperation): ArmedFault | undefined {
    const i = this.armed.findIndex((f) => f.operation === operation);
    if (i < 0) return undefined;
    const f = this.armed[i];
    f.remaining -= 1;
    if (f.remaining <= 0) this.armed.splice(i, 1);
    return { ...f };
  }
}

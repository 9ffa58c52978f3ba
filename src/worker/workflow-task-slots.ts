/**
 * Workflow-task slots that let bookings under way go first (issue 17, "finish what was started";
 * docs/orchestrator.md, "Airlines").
 *
 * A workflow's first task comes from the task queue itself (a non-sticky poll); its later tasks,
 * while the worker keeps it cached, from the worker's own sticky queue. With the SDK's fixed 40
 * slots, a burst of new bookings fills the worker with first tasks, and the next step of every
 * booking already running waits behind all of them: the first confirmation of a burst of 200 came
 * after 20-26 times the idle latency (bench/README.md, "burst and quota"). Here at most
 * `newBookings` slots serve non-sticky polls at a time, and a freed slot goes to a waiting sticky
 * poll first, so new bookings are admitted as fast as the worker finishes what it started.
 */
import type {
  CustomSlotSupplier,
  SlotPermit,
  SlotReleaseContext,
  SlotReserveContext,
  WorkflowSlotInfo,
} from '@temporalio/worker';

/** The SDK's default number of workflow-task slots. */
export const DEFAULT_WORKFLOW_TASK_SLOTS = 40;
/** Slots that may serve non-sticky polls (new workflows, and workflows not cached here) at once. */
export const DEFAULT_NEW_WORKFLOW_TASK_SLOTS = 4;

interface Permit extends SlotPermit {
  sticky: boolean;
}

interface Waiter {
  sticky: boolean;
  grant: () => void;
}

export class UnderWayFirstSlots implements CustomSlotSupplier<WorkflowSlotInfo> {
  readonly type = 'custom';
  private used = 0;
  private usedNew = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly total = DEFAULT_WORKFLOW_TASK_SLOTS,
    readonly newBookings = DEFAULT_NEW_WORKFLOW_TASK_SLOTS,
  ) {
    if (!(newBookings >= 1 && total > newBookings))
      throw new Error(`workflow task slots: need 1 <= new (${newBookings}) < total (${total})`);
  }

  reserveSlot(ctx: SlotReserveContext, abort: AbortSignal): Promise<SlotPermit> {
    const permit = this.tryReserveSlot(ctx);
    if (permit !== null) return Promise.resolve(permit);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(abort.reason);
      };
      const waiter: Waiter = {
        sticky: ctx.isSticky,
        grant: () => {
          abort.removeEventListener('abort', onAbort);
          resolve(this.take(ctx.isSticky));
        },
      };
      abort.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  tryReserveSlot(ctx: SlotReserveContext): SlotPermit | null {
    return this.fits(ctx.isSticky) ? this.take(ctx.isSticky) : null;
  }

  markSlotUsed(): void {}

  releaseSlot(ctx: SlotReleaseContext<WorkflowSlotInfo>): void {
    this.used -= 1;
    if (!(ctx.permit as Permit).sticky) this.usedNew -= 1;
    this.grantWaiting();
  }

  /** Slots in use: all, and those serving non-sticky polls. */
  inUse(): { all: number; new: number } {
    return { all: this.used, new: this.usedNew };
  }

  private fits(sticky: boolean): boolean {
    return this.used < this.total && (sticky || this.usedNew < this.newBookings);
  }

  private take(sticky: boolean): Permit {
    this.used += 1;
    if (!sticky) this.usedNew += 1;
    return { sticky };
  }

  /** Free slots go to waiting sticky polls first, then to non-sticky ones, each in arrival order. */
  private grantWaiting(): void {
    for (;;) {
      const next =
        this.waiting.find((w) => w.sticky && this.fits(true)) ?? this.waiting.find((w) => this.fits(w.sticky));
      if (next === undefined) return;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      next.grant();
    }
  }
}

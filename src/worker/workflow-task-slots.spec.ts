import type { SlotPermit, SlotReserveContext } from '@temporalio/worker';
import { UnderWayFirstSlots } from './workflow-task-slots';

const ctx = (isSticky: boolean): SlotReserveContext => ({
  slotType: 'workflow',
  taskQueue: 'bookings',
  workerIdentity: 'spec',
  workerBuildId: '',
  isSticky,
});

function release(slots: UnderWayFirstSlots, permit: SlotPermit): void {
  slots.releaseSlot({ permit, slotInfo: { type: 'workflow', workflowType: 'bookingWorkflow', isSticky: false } });
}

/** A reservation and whether it has been granted yet. */
function reserve(slots: UnderWayFirstSlots, sticky: boolean, abort = new AbortController()) {
  const r = { granted: undefined as SlotPermit | undefined, promise: slots.reserveSlot(ctx(sticky), abort.signal) };
  void r.promise.then((permit) => (r.granted = permit)).catch(() => undefined);
  return r;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('UnderWayFirstSlots', () => {
  it('serves at most `newBookings` non-sticky polls at once, and sticky polls up to the total', () => {
    const slots = new UnderWayFirstSlots(4, 2);
    expect(slots.tryReserveSlot(ctx(false))).not.toBeNull();
    expect(slots.tryReserveSlot(ctx(false))).not.toBeNull();
    expect(slots.tryReserveSlot(ctx(false))).toBeNull();
    expect(slots.tryReserveSlot(ctx(true))).not.toBeNull();
    expect(slots.tryReserveSlot(ctx(true))).not.toBeNull();
    expect(slots.tryReserveSlot(ctx(true))).toBeNull();
    expect(slots.inUse()).toEqual({ all: 4, new: 2 });
  });

  it('gives a freed slot to a waiting sticky poll before an earlier non-sticky one', async () => {
    const slots = new UnderWayFirstSlots(2, 1);
    const held = [slots.tryReserveSlot(ctx(false))!, slots.tryReserveSlot(ctx(true))!];
    const fresh = reserve(slots, false);
    const underWay = reserve(slots, true);
    await settle();
    expect([fresh.granted, underWay.granted]).toEqual([undefined, undefined]);

    release(slots, held[1]!); // a sticky slot frees: the sticky poll gets it, the new one still waits for a new slot
    await settle();
    expect(underWay.granted).toBeDefined();
    expect(fresh.granted).toBeUndefined();

    release(slots, held[0]!); // the non-sticky slot frees
    await settle();
    expect(fresh.granted).toBeDefined();
    expect(slots.inUse()).toEqual({ all: 2, new: 1 });
  });

  it('withdraws an aborted reservation with the abort reason, and it takes no slot', async () => {
    const slots = new UnderWayFirstSlots(2, 1);
    const held = slots.tryReserveSlot(ctx(false))!;
    const abort = new AbortController();
    const waiting = reserve(slots, false, abort);
    abort.abort(new Error('poller stopped'));
    await expect(waiting.promise).rejects.toThrow('poller stopped');
    release(slots, held);
    expect(slots.inUse()).toEqual({ all: 0, new: 0 });
  });

  it('refuses sizes that would leave no slot for new or for running bookings', () => {
    expect(() => new UnderWayFirstSlots(4, 0)).toThrow('workflow task slots');
    expect(() => new UnderWayFirstSlots(4, 4)).toThrow('workflow task slots');
  });
});

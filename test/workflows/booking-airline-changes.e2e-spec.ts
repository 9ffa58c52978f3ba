/**
 * Changes the airline makes (workflows/booking.airline-changes.ts) on Temporal's time-skipping test
 * server, with jest mocks as activities: a small retime accepted by the agency's policy, a long one
 * waiting in ACTION_REQUIRED for the agency, the same notification three times, the airline's
 * deadline passing, and a change found by the scheduled order read without any notification. The
 * same flows against the real airline are in test/api/airline-changes.e2e-spec.ts.
 */
import type { OrderSummary } from '../../activities/booking.activities.types';
import type { BookingWorkflowOptions } from '../../src/booking/booking.model';
import type { AirlineChangeNotice } from '../../src/booking/servicing.model';
import { airlineChangeSignal, answerAirlineChangeUpdate, stateQuery } from '../../workflows/definitions';
import { attempt, happyMocks, oneWayIntent, ORDER, pollUntil, type ActivityMocks } from './booking.fixtures';
import { timeSkippingBookings } from './time-skipping-server';

jest.setTimeout(180_000);

const DAY_MS = 24 * 3600_000;
const MINUTE_MS = 60_000;
const SERVICING: BookingWorkflowOptions = { servicing: {} };

/** `YYYY-MM-DDTHH:MM` at `ms` (read as UTC). */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);

describe('changes the airline makes (time-skipping test server)', () => {
  let mocks: ActivityMocks;
  let order: OrderSummary;
  let departureMs: number;
  const bookings = timeSkippingBookings('airline-changes', () => mocks);
  const { start, sentEvents } = bookings;

  /** The order with its one flight moved by `minutes` (or moved to `flight`), waiting for the seller. */
  const changed = (minutes: number, flight = 'ZZ1234'): OrderSummary => ({
    ...order,
    flights: [
      {
        ...order.flights![0]!,
        flight,
        departure: local(departureMs + minutes * MINUTE_MS),
        arrival: local(departureMs + (minutes + 120) * MINUTE_MS),
      },
    ],
    scheduleChange: true,
  });
  const notice = (changedOrder: OrderSummary, sequence: number): AirlineChangeNotice => ({
    detectedBy: 'notification',
    order: changedOrder,
    sequence,
    reason: 'Schedule change',
    receivedAt: new Date().toISOString(),
  });

  beforeEach(async () => {
    departureMs = (await bookings.env.currentTimeMs()) + 30 * DAY_MS;
    order = {
      ...ORDER,
      flights: [
        {
          segmentKey: 'SEG1',
          flight: 'ZZ1234',
          origin: 'LGW',
          destination: 'OSL',
          departure: local(departureMs),
          arrival: local(departureMs + 120 * MINUTE_MS),
        },
      ],
      passengerIds: ['PAX__ADT01'],
      itemCount: 1,
      payment: { status: 'paid' },
    };
    mocks = happyMocks();
    mocks.createOrder.mockImplementation(async () => ({ order, attempt: attempt() }));
    mocks.retrieveOrder.mockImplementation(async () => ({ order, orderViewXml: '<OrderViewRS/>', attempt: attempt() }));
  });

  const confirmed = async (intent = oneWayIntent()) => {
    const handle = await start(intent, SERVICING);
    await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'CONFIRMED',
    );
    return handle;
  };

  it('accepts a 30-minute retime by the policy: OrderChange accepting it, the action recorded', async () => {
    const moved = changed(30);
    mocks.changeOrder.mockImplementation(async () => ({
      order: { ...moved, scheduleChange: false },
      attempt: attempt(),
    }));
    const handle = await confirmed(oneWayIntent({ airlineChanges: { autoAccept: { maxShiftMinutes: 60 } } }));
    await handle.signal(airlineChangeSignal, notice(moved, 2));
    const state = await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.airlineChange?.action !== undefined && s.status === 'CONFIRMED',
    );
    expect(state.status).toBe('CONFIRMED');
    expect(state.airlineChange).toMatchObject({
      kind: 'retime',
      shiftMinutes: 30,
      detectedBy: 'notification',
      action: { taken: 'accept', by: 'policy' },
    });
    expect(mocks.changeOrder).toHaveBeenCalledTimes(1);
    expect(mocks.changeOrder.mock.calls[0]![0].change).toEqual({ kind: 'acceptAirlineChange', reason: 'SCA' });
    expect(state.flights).toEqual(moved.flights);
    const mine = sentEvents.filter((e) => (e.event.data as { bookingId: string }).bookingId === handle.workflowId);
    expect(mine.map((e) => e.event.type)).toContain('booking.airline_change');
    await handle.terminate();
  });

  it('a 5-hour retime waits in ACTION_REQUIRED; the agency accepts; the same notice three times changes it once', async () => {
    const moved = changed(300);
    mocks.changeOrder.mockImplementation(async () => ({
      order: { ...moved, scheduleChange: false },
      attempt: attempt(),
    }));
    const handle = await confirmed(oneWayIntent({ airlineChanges: { autoAccept: { maxShiftMinutes: 60 } } }));
    for (let i = 0; i < 3; i += 1) await handle.signal(airlineChangeSignal, notice(moved, 2));
    const waiting = await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'ACTION_REQUIRED',
    );
    expect(waiting.airlineChange).toMatchObject({
      kind: 'retime',
      shiftMinutes: 300,
      actions: ['accept', 'rebook', 'cancel'],
    });
    const state = await handle.executeUpdate(answerAirlineChangeUpdate, { args: [{ action: 'accept' }] });
    expect(state.status).toBe('CONFIRMED');
    expect(state.airlineChange?.action).toMatchObject({ taken: 'accept', by: 'agency' });
    expect(mocks.changeOrder).toHaveBeenCalledTimes(1);
    expect(state.changes?.filter((c) => c.kind === 'airline')).toHaveLength(1);
    await handle.terminate();
  });

  it("no answer by the airline's deadline: the airline's default read back and recorded (cancelled with a refund)", async () => {
    const actionBy = new Date((await bookings.env.currentTimeMs()) + DAY_MS).toISOString();
    const moved = { ...changed(0, 'ZZ9999'), actionBy };
    const handle = await confirmed();
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: { ...moved, status: 'CANCELLED', scheduleChange: false },
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    await handle.signal(airlineChangeSignal, notice(moved, 2));
    const result = await handle.result();
    expect(result.state.status).toBe('CANCELLED');
    expect(result.state.airlineChange).toMatchObject({
      kind: 'reroute',
      actionBy,
      action: { taken: 'airline-default', by: 'airline' },
    });
    const mine = sentEvents.filter((e) => (e.event.data as { bookingId: string }).bookingId === handle.workflowId);
    expect(mine.map((e) => e.event.type)).toEqual([
      'booking.confirmed',
      'booking.airline_change',
      'booking.airline_change_due',
      'booking.cancelled',
    ]);
  });

  it('finds a change without a notification by reading the order back on its schedule', async () => {
    const moved = changed(300);
    const handle = await confirmed();
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: moved,
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    // The first scheduled read comes after a day (the default), behind the permit of the reads queue.
    await bookings.env.sleep('25h');
    const state = await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'ACTION_REQUIRED',
    );
    expect(state.airlineChange).toMatchObject({ detectedBy: 'order-read', kind: 'retime', shiftMinutes: 300 });
    expect(mocks.orderReadPermit).toHaveBeenCalled();
    expect(state.steps.filter((s) => s.reason === 'scheduled order read')).toHaveLength(1);
    await handle.terminate();
  });
});

/**
 * Changes the airline makes, end to end against the embedded airline pushing its notifications
 * (as `npm start` wires it): a booking confirmed through the API; the airline retimes its flight
 * by five hours (`POST /_sim/schedule-changes`); its OrderChangeNotif reaches the API
 * (`POST /airlines/ZZ/notifications`, the push credential) and the booking goes ACTION_REQUIRED
 * with the airline's deadline; the agency accepts (`POST /bookings/{id}/airline-change`), the
 * airline's order no longer waits and the booking is CONFIRMED on the new times.
 */
import { randomBytes } from 'node:crypto';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { oneWayIntent } from './intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';
import { AUTH } from '../airline/airline-harness';

jest.setTimeout(180_000);

describe('airline changes end to end: the embedded airline pushes, the booking answers', () => {
  let stack: Stack;
  const password = randomBytes(18).toString('base64url');

  beforeAll(async () => {
    stack = await startStack({ prefix: 'airline-changes', airlinePushPassword: password });
  });

  afterAll(() => stack?.close());

  it('a 5-hour retime: notification, ACTION_REQUIRED until the airline deadline, accepted by the agency, CONFIRMED', async () => {
    const accepted = await call(stack, 'POST', '/bookings', oneWayIntent(), { 'idempotency-key': 'retime-1' });
    expect(accepted.status).toBe(202);
    const id = accepted.body.id as string;
    const confirmed = await waitForBooking(stack, id, 'CONFIRMED');
    const [flight] = confirmed.flights as { flight: string; departure: string }[];
    const date = flight!.departure.slice(0, 10);

    const sim = await fetch(`${stack.airlineUrl}/_sim/schedule-changes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: AUTH },
      body: JSON.stringify({ flight: flight!.flight, date, shiftMinutes: 300 }),
    });
    const changed = (await sim.json()) as { orders: { orderId: string; bookingReference: string }[] };
    expect([sim.status, changed.orders.map((o) => o.bookingReference)]).toEqual([
      200,
      [confirmed.order.bookingReference],
    ]);
    const store = stack.airline.get(AirlineStore);
    const orderId = changed.orders[0]!.orderId;
    const actionBy = store.getOrder(orderId)!.changeActionBy!;

    // CONFIRMED counts as an end for waitForBooking: poll the view until the notification lands.
    const waiting = await pollUntil('the booking in ACTION_REQUIRED', async () => {
      const view = await call(stack, 'GET', `/bookings/${encodeURIComponent(id)}`);
      return view.body.status === 'ACTION_REQUIRED' ? view.body : undefined;
    });
    expect(waiting.airlineChange).toMatchObject({
      detectedBy: 'notification',
      kind: 'retime',
      shiftMinutes: 300,
      actionBy,
      actions: ['accept', 'rebook', 'cancel'],
      before: [expect.objectContaining({ flight: flight!.flight, departure: flight!.departure })],
    });
    expect(waiting.airlineChange.reason).toContain(`${flight!.flight} on ${date} departs`);
    await pollUntil('the push acknowledged', async () =>
      store.notifications.ofOrder(orderId)[0]?.deliveredAt !== undefined ? true : undefined,
    );

    const path = `/bookings/${encodeURIComponent(id)}/airline-change`;
    const answer = await call(stack, 'POST', path, { action: 'accept' }, { 'idempotency-key': 'accept-1' });
    expect([answer.status, answer.body.status]).toEqual([200, 'CONFIRMED']);
    expect(answer.body.airlineChange.action).toEqual({ taken: 'accept', by: 'agency', at: expect.any(String) });
    expect(answer.body.flights).toEqual(waiting.airlineChange.after);
    const order = store.getOrder(orderId)!;
    expect([order.version, order.changeActionBy, order.view.orders[0]!.scheduleChange]).toEqual([
      3,
      undefined,
      undefined,
    ]);
    expect(store.notifications.ofOrder(orderId).map((n) => n.version)).toEqual([2]);
  });
});

/**
 * Changes the airline makes, end to end against the embedded airline pushing its notifications
 * (as `npm start` wires it): a booking confirmed through the API; the airline retimes its flight
 * by five hours (`POST /_sim/schedule-changes`); its OrderChangeNotif reaches the API
 * (`POST /airlines/ZZ/notifications`, the push credential) and the booking goes ACTION_REQUIRED
 * with the airline's deadline; the agency accepts (`POST /bookings/{id}/airline-change`), the
 * airline's order no longer waits and the booking is CONFIRMED on the new times. A cancelled flight:
 * cancelled by the agency, or rebooked without the fee. Nobody answering by the airline's
 * deadline (AIRLINE_CHANGE_ACTION_MS of 3 s here): the airline's default, recorded by the booking.
 */
import { randomBytes } from 'node:crypto';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { oneWayIntent } from './intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';
import { testAirlineConfig } from '../../src/airline/airline.config';
import { AUTH } from '../airline/airline-harness';

jest.setTimeout(180_000);

const DAY = 86_400_000;

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

  /** A booking confirmed through the API departing `days` from now (a date no other test's flight change touches). */
  async function confirmedIn(
    days: number,
    key: string,
  ): Promise<{ id: string; view: any; date: string; flight: string }> {
    const accepted = await call(
      stack,
      'POST',
      '/bookings',
      oneWayIntent({ now: new Date(Date.now() + (days - 30) * DAY) }),
      {
        'idempotency-key': key,
      },
    );
    expect(accepted.status).toBe(202);
    const view = await waitForBooking(stack, accepted.body.id, 'CONFIRMED');
    const [first] = view.flights as { flight: string; departure: string }[];
    return { id: accepted.body.id, view, date: first!.departure.slice(0, 10), flight: first!.flight };
  }

  async function simulate(body: unknown): Promise<void> {
    const sim = await fetch(`${stack.airlineUrl}/_sim/schedule-changes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: AUTH },
      body: JSON.stringify(body),
    });
    expect(sim.status).toBe(200);
  }

  async function actionRequired(id: string): Promise<any> {
    return pollUntil(`booking ${id} in ACTION_REQUIRED`, async () => {
      const view = await call(stack, 'GET', `/bookings/${encodeURIComponent(id)}`);
      return view.body.status === 'ACTION_REQUIRED' ? view.body : undefined;
    });
  }

  it('a cancelled flight: the travellers moved to the next flight; the agency cancels and gets everything back', async () => {
    const booked = await confirmedIn(40, 'cancelled-1');
    await simulate({ flight: booked.flight, date: booked.date, cancelled: true });
    const next = new Date(Date.parse(`${booked.date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    const waiting = await actionRequired(booked.id);
    // The next day's flight has the same number: the booking sees the same flight a day later.
    expect(waiting.airlineChange).toMatchObject({
      kind: 'retime',
      shiftMinutes: 1440,
      actions: ['accept', 'rebook', 'cancel'],
    });
    expect(waiting.airlineChange.reason).toBe(
      `${booked.flight} on ${booked.date} is cancelled; the travellers are moved to ${booked.flight} on ${next}`,
    );
    expect(waiting.airlineChange.after.map((f: { departure: string }) => f.departure.slice(0, 10))).toEqual([next]);
    const path = `/bookings/${encodeURIComponent(booked.id)}/airline-change`;
    const answer = await call(stack, 'POST', path, { action: 'cancel' }, { 'idempotency-key': 'cancel-1' });
    expect([answer.status, answer.body.status]).toEqual([200, 'CANCELLED']);
    // Within the airline's void window a cancel refunds everything anyway: the order shows it was the schedule change.
    expect(answer.body.cancellation).toMatchObject({ status: 'cancelled', refund: booked.view.order.total });
    expect(answer.body.airlineChange.action).toMatchObject({ taken: 'cancel', by: 'agency' });
  });

  it('a cancelled flight: the agency rebooks on a change offer without the change fee', async () => {
    const booked = await confirmedIn(50, 'rebook-1');
    const next = new Date(Date.parse(`${booked.date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    await simulate({
      flight: booked.flight,
      date: booked.date,
      cancelled: true,
      alternative: { flight: booked.flight, date: next },
    });
    await actionRequired(booked.id);
    // A week later: the same weekday's fare, nothing due.
    const later = new Date(Date.parse(`${booked.date}T00:00:00Z`) + 7 * DAY).toISOString().slice(0, 10);
    const base = `/bookings/${encodeURIComponent(booked.id)}`;
    const offers = await call(stack, 'POST', `${base}/change-offers`, { journey: { departureDate: later } });
    expect(offers.status).toBe(200);
    const offer = (offers.body.offers as any[]).find((o) => o.priceClass === 'ECONOMY');
    expect([offer.penalty, offer.difference]).toEqual([
      { value: '0.00', currency: 'GBP' },
      { value: '0.00', currency: 'GBP' },
    ]);
    const answer = await call(
      stack,
      'POST',
      `${base}/airline-change`,
      { action: 'rebook', offerId: offer.id },
      { 'idempotency-key': 'rebook-1' },
    );
    expect([answer.status, answer.body.status]).toEqual([200, 'CONFIRMED']);
    expect(answer.body.flights.map((f: { departure: string }) => f.departure.slice(0, 10))).toEqual([later]);
    expect(answer.body.airlineChange.action).toMatchObject({ taken: 'rebook', by: 'agency' });
  });
});

describe("airline changes end to end: nobody answers by the airline's deadline", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      prefix: 'airline-default',
      airlinePushPassword: randomBytes(18).toString('base64url'),
      airline: { servicing: { ...testAirlineConfig().servicing, changeActionMs: 3000 } },
    });
  });

  afterAll(() => stack?.close());

  async function booked(days: number, key: string): Promise<{ id: string; flight: string; date: string }> {
    const intent = oneWayIntent({ now: new Date(Date.now() + (days - 30) * DAY) });
    const accepted = await call(stack, 'POST', '/bookings', intent, { 'idempotency-key': key });
    expect(accepted.status).toBe(202);
    const view = await waitForBooking(stack, accepted.body.id, 'CONFIRMED');
    const [first] = view.flights as { flight: string; departure: string }[];
    return { id: accepted.body.id, flight: first!.flight, date: first!.departure.slice(0, 10) };
  }

  async function simulate(body: unknown): Promise<void> {
    const sim = await fetch(`${stack.airlineUrl}/_sim/schedule-changes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: AUTH },
      body: JSON.stringify(body),
    });
    expect(sim.status).toBe(200);
  }

  /** The booking's view once `settled` says the airline's default was recorded. */
  function settled(id: string): Promise<any> {
    return pollUntil(`the airline's default recorded on ${id}`, async () => {
      const view = await call(stack, 'GET', `/bookings/${encodeURIComponent(id)}`);
      return view.body.airlineChange?.action?.taken === 'airline-default' ? view.body : undefined;
    });
  }

  it('a retime stands: the booking records the airline default and is CONFIRMED on the new times', async () => {
    const b = await booked(60, 'default-retime');
    await simulate({ flight: b.flight, date: b.date, shiftMinutes: 300 });
    const view = await settled(b.id);
    expect([view.status, view.airlineChange.action.by]).toEqual(['CONFIRMED', 'airline']);
    expect(view.flights.map((f: { departure: string }) => f.departure)).toEqual([`${b.date}T12:00`]);
  });

  it("a cancelled flight's booking: the airline cancels the order with a full refund, the booking ends CANCELLED", async () => {
    const b = await booked(61, 'default-cancel');
    await simulate({ flight: b.flight, date: b.date, cancelled: true });
    const view = await settled(b.id);
    expect([view.status, view.airlineChange.action.by]).toEqual(['CANCELLED', 'airline']);
    const order = stack.airline.get(AirlineStore).getOrder(view.order.orderId)!;
    expect([order.status, order.cancellation]).toEqual([
      'cancelled',
      expect.objectContaining({ kind: 'cancel', fee: { value: '0.00', currency: 'GBP' }, refund: view.order.total }),
    ]);
  });
});

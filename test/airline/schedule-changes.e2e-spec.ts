/**
 * Changes the airline makes (docs/airline-service.md, "Schedule changes"), against the real app
 * over HTTP: `POST /_sim/schedule-changes` retimes or cancels a flight, every order on it gets a
 * new version waiting for the seller (`Status@ScheduleChangeInd` and its deadline), and the
 * airline pushes an OrderChangeNotif (SOAP 1.1, its Basic credential) to a receiver in this test,
 * retried after a 500, once per order version; the seller accepts (OrderChangeRQ), rebooks with
 * the fee waived or cancels with a full refund; nobody answers: the airline's default, also after
 * a restart. A hold not paid in time is cancelled and pushed too. Every message is checked against the XSD of its root.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AirlineServices } from '../../src/airline/airline.module';
import { RETAIL_DOMAIN } from '../../src/airline/airline.tokens';
import { AirlineStore } from '../../src/airline/store/airline.store';
import {
  decodeOrderCancelRs,
  decodeOrderChangeNotif,
  encodeOrderCancelRq,
  ndcDocument,
  reshopSummary,
  type Money,
  type OrderChangeNotif,
  type OrderViewRs,
} from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';
import { subtract } from '../../src/common/decimal';
import { AUTH, type RunningAirline, createToken, postXml, startAirline } from './airline-harness';
import { AGENCY, ONE_ADULT, common, daySearchXml, inDays } from './ndc-client';
import {
  type Booked,
  DEBIT,
  MovableClock,
  ServicingClient,
  acceptReshop,
  cardPayment,
  changeRq,
  outcome,
  reshopRq,
} from './servicing-client';

const HOURS = 3_600_000;
const PUSH_PASSWORD = 'push-secret-for-tests';

/** A notification the receiver got, and what it answered. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** The agency's notification endpoint: records every push, answers 500 to the next `failNext` ones. */
class Receiver {
  readonly received: Received[] = [];
  failNext = 0;
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = this.failNext > 0 ? 500 : 200;
        if (this.failNext > 0) this.failNext -= 1;
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path: req.url ?? '', headers: req.headers, body, status });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{"outcome":"delivered"}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The acknowledged notifications of `orderId`, read. */
  acknowledged(orderId: string): OrderChangeNotif[] {
    return this.received
      .filter((r) => r.status === 200)
      .map((r) => decodeOrderChangeNotif(r.body))
      .filter((n) => n.order.orderId === orderId);
  }

  /** Waits (polling, for 30 s at most) until `orderId` has `count` acknowledged notifications. */
  async waitFor(orderId: string, count: number): Promise<OrderChangeNotif[]> {
    const deadline = Date.now() + 30_000;
    while (this.acknowledged(orderId).length < count) {
      if (Date.now() > deadline)
        throw new Error(`no ${count} notifications of ${orderId}: ${this.received.length} pushes`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.acknowledged(orderId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const money = (value: string): Money => ({ value, currency: 'GBP' });

describe('airline schedule changes', () => {
  const receiver = new Receiver();
  const clock = new MovableClock();
  let dir: string;
  let airline: RunningAirline;
  let s: ServicingClient;
  let store: AirlineStore;
  let day = 20;

  const config = () => ({
    dbPath: join(dir, 'airline.db'),
    notify: {
      url: `${receiver.url}/agencies/{agency}/notifications`,
      username: 'ZZ',
      password: PUSH_PASSWORD,
      binding: 'soap11' as const,
      retryMs: 50,
    },
  });

  async function start(): Promise<void> {
    airline = await startAirline(config(), { clock });
    s = new ServicingClient(airline.url);
    store = airline.app.get(AirlineStore);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airline-schedule-'));
    await receiver.start();
    await start();
  });

  afterEach(() => {
    clock.offsetMs = 0;
  });

  afterAll(async () => {
    await airline.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Books one adult LGW-OSL (ZZ101, 07:00) on a fresh day, paid by debit card. */
  async function bookFresh(): Promise<{ booked: Booked; date: string }> {
    const date = inDays((day += 3));
    return { booked: await s.book({ date }), date };
  }

  function simulate(body: unknown, auth = AUTH) {
    return fetch(`${airline.url}/_sim/schedule-changes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body: JSON.stringify(body),
    });
  }

  async function retrieve(orderId: string): Promise<Extract<OrderViewRs, { kind: 'success' }>> {
    const rs = await s.c.retrieve(orderId);
    if (rs.kind !== 'success') throw new Error(JSON.stringify(rs));
    return rs;
  }

  const departures = (rs: { dataLists: { flightSegments?: { departure: { date: string; time?: string } }[] } }) =>
    (rs.dataLists.flightSegments ?? []).map((seg) => `${seg.departure.date}T${seg.departure.time}`);

  it('a retime: the order gets a new version waiting for the seller, pushed once (after a 500) in SOAP 1.1 with the credential; accepting it ends the wait, exactly once', async () => {
    const { booked, date } = await bookFresh();
    const bookingReference = booked.view.orders[0].bookingReferences[0].id;
    receiver.failNext = 1;
    const res = await simulate({ flight: 'ZZ101', date, shiftMinutes: 45 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ orders: [{ orderId: booked.orderId, bookingReference }] });

    const view = await retrieve(booked.orderId);
    expect(await s.version(booked.orderId)).toBe(2);
    expect(departures(view)).toEqual([`${date}T07:45`]);
    const order = view.orders[0];
    expect([order.statusCode, order.scheduleChange]).toEqual(['OK', true]);
    expect(Date.parse(order.scheduleChangeActionBy!) - Date.now()).toBeGreaterThan(47 * HOURS);
    expect(Date.parse(order.scheduleChangeActionBy!) - Date.now()).toBeLessThanOrEqual(48 * HOURS);

    const [notif] = await receiver.waitFor(booked.orderId, 1);
    const pushes = receiver.received.filter((r) => r.body.includes(booked.orderId));
    expect(pushes.map((r) => r.status)).toEqual([500, 200]);
    expect(pushes[1]!.body).toBe(pushes[0]!.body);
    const push = pushes[1]!;
    expect(push.path).toBe(`/agencies/${AGENCY}/notifications`);
    expect(push.headers.authorization).toBe(`Basic ${Buffer.from(`ZZ:${PUSH_PASSWORD}`).toString('base64')}`);
    expect([push.headers['content-type'], push.headers.soapaction]).toEqual([
      'text/xml; charset=utf-8',
      '"OrderChangeNotif"',
    ]);
    expect(push.body).toMatch(/^<\?xml[^>]*\?><soap:Envelope /);
    expectValidXsd(ndcDocument(push.body), 'OrderChangeNotif');
    expect(notif).toMatchObject({
      sequenceNumber: 2,
      party: { airlineId: 'ZZ', agencyId: AGENCY },
      amendments: [
        {
          actionType: 'Update',
          context: 'ScheduleChange',
          remarks: [`ZZ101 on ${date} departs 07:45 instead of 07:00 (+45 min)`],
        },
      ],
    });
    expect(notif!.order.scheduleChange).toBe(true);
    expect(departures(notif!)).toEqual([`${date}T07:45`]);
    // New sales see the new time.
    const shopped = await s.c.day([{ from: 'LGW', to: 'OSL', date }], ONE_ADULT);
    expect(departures(shopped)).toEqual([`${date}T07:45`]);

    // The seller accepts as the orchestrator does: OrderChangeRQ with Reason SCA and nothing else.
    const accept = { ...changeRq(booked.orderId, { tx: 'TX-ACCEPT-1' }), reason: 'SCA' };
    const accepted = await s.changed(accept);
    if (accepted.kind !== 'success') throw new Error(JSON.stringify(accepted));
    expect(accepted.orders[0].scheduleChange).toBeUndefined();
    expect(accepted.orders[0].scheduleChangeActionBy).toBeUndefined();
    expect(departures(accepted)).toEqual([`${date}T07:45`]);
    expect(await s.version(booked.orderId)).toBe(3);
    // The same request again answers the same, changing nothing more.
    const again = await s.changed(accept);
    expect(again.kind === 'success' && [again.orders, again.dataLists]).toEqual([accepted.orders, accepted.dataLists]);
    expect(await s.version(booked.orderId)).toBe(3);
    // The seller's own change is not pushed back: one acknowledged notification, one version.
    expect(receiver.acknowledged(booked.orderId).map((n) => n.sequenceNumber)).toEqual([2]);
    expect(store.notifications.ofOrder(booked.orderId).map((n) => [n.version, n.attempts, !!n.deliveredAt])).toEqual([
      [2, 2, true],
    ]);
  });

  it('a cancelled flight with an alternative: the travellers move at no cost, the flight is no longer sold; a rebook waives the change fee', async () => {
    const { booked, date } = await bookFresh();
    const next = inDays(day + 1);
    const paid = booked.view.orders[0].totalOrderPrice;
    const res = await simulate({
      flight: 'ZZ101',
      date,
      cancelled: true,
      alternative: { flight: 'ZZ101', date: next },
    });
    const body = (await res.json()) as { orders: { orderId: string }[] };
    expect([res.status, body.orders.map((o) => o.orderId)]).toEqual([200, [booked.orderId]]);
    const view = await retrieve(booked.orderId);
    expect(departures(view)).toEqual([`${next}T07:00`]);
    expect([view.orders[0].scheduleChange, view.orders[0].totalOrderPrice]).toEqual([true, paid]);
    const [notif] = await receiver.waitFor(booked.orderId, 1);
    expect(notif!.amendments[0]!.remarks).toEqual([
      `ZZ101 on ${date} is cancelled; the travellers are moved to ZZ101 on ${next}`,
    ]);
    const unsold = await s.c.shop(daySearchXml([{ from: 'LGW', to: 'OSL', date }], ONE_ADULT, AGENCY));
    expect(unsold.kind === 'error' && unsold.errors.map((e) => [e.code, e.text])).toEqual([
      ['710', `No availability from LGW to OSL on ${date}`],
    ]);
    // ECONOMY changes for 50.00 a journey; not after the airline's change.
    const items = view.orders[0].orderItems.map((i) => i.orderItemId);
    const later = inDays(day + 2);
    const offers = await s.reshop(
      reshopRq(booked.orderId, {
        kind: 'servicing',
        add: {
          flightQuery: { kind: 'day', originDestinations: [{ departureCode: 'LGW', arrivalCode: 'OSL', date: later }] },
          priceClass: 'ECONOMY',
        },
        deleteOrderItemIds: items,
      }),
    );
    if (offers.kind !== 'success' || offers.result.kind !== 'offers') throw new Error(JSON.stringify(offers));
    const offer = offers.result.offers[0]!;
    const { difference, penalty } = reshopSummary(offer, 'GBP');
    expect([penalty, offer.penalty?.changeFee]).toEqual([money('0.00'), false]);
    // Only the fare difference (another weekday) is due.
    expect(difference).toEqual(money(subtract(offer.totalPrice!.value!, paid!.value!, 2)));
    const payments = difference.value.startsWith('-')
      ? []
      : cardPayment(await createToken(airline.url, DEBIT), difference);
    const rebooked = await s.changed(
      changeRq(booked.orderId, {
        acceptOffers: [acceptReshop(offer, offers.reshopResponseId!)],
        payments,
        tx: 'TX-REBOOK',
      }),
    );
    if (rebooked.kind !== 'success') throw new Error(JSON.stringify(rebooked));
    expect([departures(rebooked), rebooked.orders[0].scheduleChange]).toEqual([[`${later}T07:00`], undefined]);
  });

  it('a cancelled flight without an alternative: the next flight with seats; a cancel after it refunds everything, past the void window', async () => {
    const { booked, date } = await bookFresh();
    const res = await simulate({ flight: 'ZZ101', date, cancelled: true });
    expect(res.status).toBe(200);
    expect(departures(await retrieve(booked.orderId))).toEqual([`${inDays(day + 1)}T07:00`]);
    clock.offsetMs = 30 * HOURS;
    const paid = booked.view.orders[0].totalOrderPrice!;
    const cancelled = decodeOrderCancelRs(
      (
        await postXml(
          airline.url,
          '/retail/orders',
          encodeOrderCancelRq({ ...common(AGENCY), order: { orderId: booked.orderId, owner: 'ZZ' } }),
        )
      ).text,
    );
    expect(cancelled.kind === 'success' && cancelled.cancellations[0]).toMatchObject({
      refund: paid,
      cancellationFee: money('0.00'),
    });
  });

  it('nobody answers: at the deadline a retime stands; after a restart past its deadline a cancelled flight’s order is cancelled with a full refund, and pushed', async () => {
    const retimed = await bookFresh();
    const cancelled = await bookFresh();
    expect((await simulate({ flight: 'ZZ101', date: retimed.date, shiftMinutes: -30 })).status).toBe(200);
    expect((await simulate({ flight: 'ZZ101', date: cancelled.date, cancelled: true })).status).toBe(200);
    await receiver.waitFor(retimed.booked.orderId, 1);
    await receiver.waitFor(cancelled.booked.orderId, 1);

    clock.offsetMs = 48 * HOURS + 60_000;
    airline.app.get<AirlineServices>(RETAIL_DOMAIN).changeJob.wakeBy(clock.now().toISOString());
    const [, stood] = await receiver.waitFor(retimed.booked.orderId, 2);
    expect(stood).toMatchObject({ sequenceNumber: 3, amendments: [{ actionType: 'Update' }] });
    expect(stood!.order.scheduleChange).toBeUndefined();
    expect(departures(stood!)).toEqual([`${retimed.date}T06:30`]);

    // The cancelled flight's order: applied by the job at start after a restart.
    await airline.close();
    await start();
    const [, gone] = await receiver.waitFor(cancelled.booked.orderId, 2);
    const paid = cancelled.booked.view.orders[0].totalOrderPrice!;
    expect(gone).toMatchObject({ sequenceNumber: 3, amendments: [{ actionType: 'Cancel' }] });
    expect(gone!.order.statusCode).toBe('XX');
    expect(gone!.amendments[0]!.remarks[0]).toContain(`the order is cancelled and ${paid.value} GBP refunded`);
    expect(store.getOrder(cancelled.booked.orderId)?.cancellation).toMatchObject({ fee: money('0.00'), refund: paid });
    expect(outcome(await s.c.retrieve(cancelled.booked.orderId))).toBe('success');
  });

  it('a hold not paid by its payment time limit: the airline cancels it and pushes the cancel, once', async () => {
    const date = inDays((day += 3));
    const held = await s.book({ date, card: 'hold' });
    const due = held.view.orders[0].paymentTimeLimit!;
    clock.offsetMs = Date.parse(due) - Date.now() + 60_000;
    airline.app.get<AirlineServices>(RETAIL_DOMAIN).holdJob.wakeBy(clock.now().toISOString());
    const [gone] = await receiver.waitFor(held.orderId, 1);
    expect(gone).toMatchObject({ sequenceNumber: 2, amendments: [{ actionType: 'Cancel' }] });
    expect(gone!.order.statusCode).toBe('XX');
    expect(gone!.amendments[0]!.remarks).toEqual([`Not paid by the payment time limit ${due}: the order is cancelled`]);
    expect(store.getOrder(held.orderId)?.status).toBe('expired');
    expect(store.notifications.ofOrder(held.orderId).map((n) => n.version)).toEqual([2]);
  });

  it('refuses a bad body naming the field, an unknown flight, and a caller without the credentials', async () => {
    const date = inDays(40);
    const bad = async (body: unknown) => {
      const res = await simulate(body);
      return [res.status, ((await res.json()) as { description: string }).description];
    };
    expect(await bad({ flight: 'ZZ101', date })).toEqual([
      400,
      'Bad Request: shiftMinutes give either shiftMinutes (a retime) or cancelled: true',
    ]);
    expect(await bad({ flight: 'ZZ101', date: '2026-13-01', shiftMinutes: 10 })).toEqual([
      400,
      'Bad Request: date must be a date YYYY-MM-DD',
    ]);
    expect(await bad({ flight: 'XX101', date, shiftMinutes: 10 })).toEqual([
      400,
      'Bad Request: flight XX is not this airline (ZZ)',
    ]);
    expect(await bad({ flight: 'ZZ9999', date, cancelled: true })).toEqual([
      400,
      'Bad Request: flight ZZ9999 is not a flight of this airline',
    ]);
    expect(await bad({ flight: 'ZZ101', date, cancelled: true, alternative: { flight: 'ZZ101', date } })).toEqual([
      400,
      'Bad Request: alternative is the cancelled flight itself',
    ]);
    expect(await bad({ flight: 'ZZ101', date, shiftMinutes: 10, alternative: { flight: 'ZZ101', date } })).toEqual([
      400,
      'Bad Request: alternative goes only with cancelled: true',
    ]);
    expect((await simulate({ flight: 'ZZ101', date, shiftMinutes: 10 }, 'Basic eDp5')).status).toBe(401);
  });
});

/**
 * End to end through the API with a real Temporal dev server, the real airline, a real worker:
 * happy paths (one-way, round trip with a surcharge card, debit card), idempotent POST,
 * validation errors, 404s, listing, batches, health, and the card-data leak check over the
 * Temporal histories, the captured logs and every API answer of this file.
 */
import { expectValidXsd } from '../support/xsd';
import { temporalTestAddress, temporalTestNamespace, workflowHistoryJson } from '../support/temporal-env';
import {
  CREDIT_CARD,
  CREDIT_CARD_2,
  DEBIT_CARD,
  TEST_CVV,
  addDays,
  oneWayIntent,
  roundTripFamilyIntent,
} from './intent.fixture';
import { BOOKING_STEPS } from '../workflows/booking.fixtures';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';
import { captureProcessOutput } from '../support/capture-output';
import { keyReusedProblem, problemBody } from './problem.fixture';

// Everything the process writes (API, worker, airline, SDK logs) and every API answer, for the leak check.
/** A card whose issuer asks for 3-D Secure, and a CAVV of an authentication done beforehand. */
const THREE_DS_CARD = '4000000000003220';
const TEST_CAVV = 'AAABBJg0VhI0VniQEjRWAAAAAAA=';
const captured = captureProcessOutput('INFO');

describe('booking API end to end', () => {
  let stack: Stack;
  const bookingIds: string[] = [];
  const api = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await call(stack, method, path, body, headers);
    captured.push(r.text);
    return r;
  };

  beforeAll(async () => {
    stack = await startStack({
      prefix: 'api-flow',
      keys: { agflow: { agencyId: 'AGFLOW' }, agbatch: { agencyId: 'AGBATCH' }, ops: { agencyId: 'OPS', role: 'ops' } },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  let orderViewXml = '';

  it('cancels a CONFIRMED booking (serviceable until departure): voided at the airline once, refund in the state, twice = same answer', async () => {
    const intent = oneWayIntent({ agencyId: 'AGFLOW', card: DEBIT_CARD });
    const posted = await api('POST', '/bookings', intent, { 'Idempotency-Key': 'cancel-confirmed-1' });
    expect(posted.status).toBe(202);
    const id: string = posted.body.id;
    const confirmed = await waitForBooking(stack, id, 'CONFIRMED');
    const cancelled = await api('POST', `/bookings/${encodeURIComponent(id)}/cancel`);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({ id, status: 'CANCELLED', signal: 'cancelBooking' });
    // Within 24 h of creation the airline voids the order: the whole total comes back.
    expect(cancelled.body.cancellation).toMatchObject({
      status: 'cancelled',
      settledBy: 'answer',
      refund: confirmed.order.total,
    });
    const again = await api('POST', `/bookings/${encodeURIComponent(id)}/cancel`);
    expect([again.status, again.body.status, again.body.cancellation]).toEqual([
      202,
      'CANCELLED',
      cancelled.body.cancellation,
    ]);
    const view = await waitForBooking(stack, id, 'CANCELLED');
    expect(view.steps.filter((s: { name: string }) => s.name === 'cancelOrder')).toHaveLength(1);
    const orders = stack.ordersFor(confirmed.chosenOffer.shoppingResponseId);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.cancellation).toMatchObject({ kind: 'void', refund: confirmed.order.total });
  });

  it('one-way LGW-OSL: 202, then CONFIRMED, then GET order gives the OrderViewRS XML', async () => {
    const intent = oneWayIntent({ agencyId: 'AGFLOW', card: CREDIT_CARD });
    const posted = await api('POST', '/bookings', intent, {
      'Idempotency-Key': 'one-way-1',
      'X-Request-Id': 'flow-one-way-1',
    });
    expect(posted.status).toBe(202);
    expect(posted.headers.get('location')).toBe('/bookings/booking%3AAGFLOW%3Aone-way-1');
    expect(posted.headers.get('x-request-id')).toBe('flow-one-way-1');
    expect(posted.body).toEqual({
      id: 'booking:AGFLOW:one-way-1',
      status: 'RUNNING',
      existing: false,
      links: {
        self: '/bookings/booking%3AAGFLOW%3Aone-way-1',
        order: '/bookings/booking%3AAGFLOW%3Aone-way-1/order',
        approvePrice: '/bookings/booking%3AAGFLOW%3Aone-way-1/approve-price',
        cancel: '/bookings/booking%3AAGFLOW%3Aone-way-1/cancel',
      },
    });
    bookingIds.push(posted.body.id);
    const view = await waitForBooking(stack, posted.body.id, 'CONFIRMED');
    captured.push(JSON.stringify(view));
    expect(view.error).toBeUndefined();
    expect(view.correlationId).toBe('flow-one-way-1');
    expect(view.order.bookingReference).toMatch(/^[A-Z0-9]{6}$/);
    expect(view.order.total).toEqual(view.pricedTotal);
    expect(view.order.total.currency).toBe('GBP');
    expect(view.surcharge).toBeDefined();
    expect(view.steps.map((s: { name: string }) => s.name)).toEqual(BOOKING_STEPS);
    const order = await api('GET', `/bookings/${encodeURIComponent(posted.body.id)}/order`);
    expect(order.status).toBe(200);
    expect(order.contentType).toBe('application/xml; charset=utf-8');
    expect(order.text).toMatch(/^<\?xml[^>]*\?>\s*<OrderViewRS /);
    expect(order.text).toContain(`<ID>${view.order.bookingReference}</ID>`);
    // The X-Request-Id of the POST went to the airline as the NDC CorrelationID, which it echoes.
    expect(order.text).toMatch(/ CorrelationID="flow-one-way-1"/);
    orderViewXml = order.text;
  });

  it('the OrderViewRS of GET order validates against the NDC 17.2 XSD', () => {
    expect(orderViewXml).not.toBe('');
    expectValidXsd(orderViewXml, 'OrderViewRS');
  });

  it('round trip LGW-JFK, ADT+CHD+INF, surcharge card: the surcharge is in the state and the total', async () => {
    const intent = roundTripFamilyIntent({ agencyId: 'AGFLOW', card: CREDIT_CARD_2 });
    const posted = await api('POST', '/bookings', intent, { 'Idempotency-Key': 'round-trip-1' });
    expect(posted.status).toBe(202);
    bookingIds.push(posted.body.id);
    const view = await waitForBooking(stack, posted.body.id, 'CONFIRMED');
    captured.push(JSON.stringify(view));
    expect(view.chosenOffer.returnDate).toBe(intent.journey.returnDate);
    expect(view.surcharge.currency).toBe('GBP');
    expect(Number(view.surcharge.value)).toBeGreaterThan(0);
    expect(view.pricedTotal).toEqual(view.order.total);
    expect(view.steps.map((s: { name: string }) => s.name)).toContain('repriceWithToken');
  });

  it('debit card: no surcharge', async () => {
    const posted = await api('POST', '/bookings', oneWayIntent({ agencyId: 'AGFLOW', card: DEBIT_CARD }), {
      'Idempotency-Key': 'debit-1',
    });
    expect(posted.status).toBe(202);
    bookingIds.push(posted.body.id);
    const view = await waitForBooking(stack, posted.body.id, 'CONFIRMED');
    captured.push(JSON.stringify(view));
    expect(view.surcharge).toBeUndefined();
    expect(view.order.total).toEqual(view.pricedTotal);
  });

  it('pre-authenticated 3-D Secure card (payment.card.authentication): CONFIRMED without a challenge', async () => {
    const intent = oneWayIntent({ agencyId: 'AGFLOW', card: THREE_DS_CARD });
    intent.payment.card.authentication = { cavv: TEST_CAVV, eci: '05', transactionId: 'acs-tx-0001' };
    const posted = await api('POST', '/bookings', intent, { 'Idempotency-Key': 'preauth-1' });
    expect(posted.status).toBe(202);
    bookingIds.push(posted.body.id);
    const view = await waitForBooking(stack, posted.body.id, 'CONFIRMED');
    captured.push(JSON.stringify(view));
    expect(view.order.status).toBe('OK');
  });

  it('promotion code PROMO10: a lower total than the same booking without it', async () => {
    const plain = oneWayIntent({ agencyId: 'AGFLOW', card: DEBIT_CARD });
    plain.journey.departureDate = addDays(new Date(), 70);
    const promo = { ...plain, promotionCode: 'PROMO10' };
    const a = await api('POST', '/bookings', plain, { 'Idempotency-Key': 'promo-base-1' });
    const b = await api('POST', '/bookings', promo, { 'Idempotency-Key': 'promo-1' });
    bookingIds.push(a.body.id, b.body.id);
    const [va, vb] = await Promise.all([
      waitForBooking(stack, a.body.id, 'CONFIRMED'),
      waitForBooking(stack, b.body.id, 'CONFIRMED'),
    ]);
    expect(vb.order.total.currency).toBe(va.order.total.currency);
    expect(Number(vb.order.total.value)).toBeLessThan(Number(va.order.total.value));
  });

  it('idempotent POST: same key, same booking and one order; different body, 422', async () => {
    const intent = oneWayIntent({ agencyId: 'AGFLOW', card: DEBIT_CARD });
    const first = await api('POST', '/bookings', intent, { 'Idempotency-Key': 'idem-1' });
    const second = await api('POST', '/bookings', intent, { 'Idempotency-Key': 'idem-1' });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.existing).toBe(true);
    bookingIds.push(first.body.id);
    const view = await waitForBooking(stack, first.body.id, 'CONFIRMED');
    // After completion, the key still gives the same booking, not a second one.
    const third = await api('POST', '/bookings', intent, { 'Idempotency-Key': 'idem-1' });
    expect(third.status).toBe(202);
    expect(third.body).toMatchObject({ id: first.body.id, existing: true });
    expect(stack.ordersFor(view.chosenOffer.shoppingResponseId)).toHaveLength(1);
    const other = await api('POST', '/bookings', { ...intent, language: 'NO' }, { 'Idempotency-Key': 'idem-1' });
    expect(other.status).toBe(422);
    expect(other.contentType).toBe('application/problem+json; charset=utf-8');
    expect(other.body).toEqual(keyReusedProblem('/bookings', other.headers.get('x-request-id'), first.body.id));
  });

  it('validation errors: 400 naming each field, no card data echoed', async () => {
    const intent = oneWayIntent({ agencyId: 'AGFLOW' }) as any;
    intent.passengers.push({
      type: 'ADT',
      title: 'MR',
      givenName: 'B',
      surname: 'C',
      birthdate: '1990-02-30',
      contactId: 'C9',
    });
    intent.payment.card.number = `${CREDIT_CARD.slice(0, 15)}2`;
    intent.selection = { maxTotal: '12,50' };
    const r = await api('POST', '/bookings', intent);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(
      problemBody(400, 'INVALID_INTENT', 'Invalid booking intent', '/bookings', r.headers.get('x-request-id'), {
        fields: [
          { path: 'passengers[1].birthdate', message: 'must be a valid date YYYY-MM-DD' },
          { path: 'selection.maxTotal', message: 'must be a decimal string such as "250.00"' },
          { path: 'payment.card.number', message: 'is not a valid card number (Luhn check failed)' },
          { path: 'passengers[1].contactId', message: 'must be the id of one of the contacts' },
        ],
      }),
    );
    expect(r.text).not.toContain(CREDIT_CARD.slice(0, 12));
    const batch = await api('POST', '/batches', [
      oneWayIntent({ agencyId: 'AGFLOW' }),
      { ...oneWayIntent({ agencyId: 'AGFLOW' }), currency: 'pounds' },
    ]);
    expect(batch.status).toBe(400);
    expect(batch.body.fields).toEqual([
      { path: '[1].currency', message: 'must be an ISO 4217 currency code (3 capital letters)' },
    ]);
  });

  it('unknown ids: 404', async () => {
    for (const [method, path] of [
      ['GET', '/bookings/booking:AGFLOW:nope'],
      ['GET', '/bookings/booking:AGFLOW:nope/order'],
      ['POST', '/bookings/booking:AGFLOW:nope/approve-price'],
      ['POST', '/bookings/booking:AGFLOW:nope/cancel'],
    ] as const) {
      const r = await api(method, path);
      expect([path, r.status, r.body.code, r.body.detail]).toEqual([
        path,
        404,
        'BOOKING_NOT_FOUND',
        'No booking with id booking:AGFLOW:nope',
      ]);
    }
    const b = await api('GET', '/batches/batch:nope');
    expect(b.status).toBe(404);
    expect(b.body.code).toBe('BATCH_NOT_FOUND');
  });

  it('GET /bookings lists confirmed bookings of an agency from visibility', async () => {
    expect(bookingIds.length).toBeGreaterThan(0);
    const listed = await pollUntil('visibility to show the confirmed bookings', async () => {
      const r = await api('GET', '/bookings?status=CONFIRMED&agencyId=AGFLOW');
      const ids = (r.body.bookings as { id: string }[]).map((b) => b.id).sort();
      return ids.length === bookingIds.length ? r.body.bookings : undefined;
    });
    expect(listed.map((b: { id: string }) => b.id).sort()).toEqual([...bookingIds].sort());
    const first = listed.find((b: { id: string }) => b.id === 'booking:AGFLOW:one-way-1');
    expect(first).toMatchObject({
      status: 'CONFIRMED',
      agencyId: 'AGFLOW',
      route: 'LGW-OSL',
      workflowStatus: 'RUNNING',
    }); // open: serviceable until its flight has departed
    expect(first.bookingReference).toMatch(/^[A-Z0-9]{6}$/);
    const none = await api('GET', '/bookings?status=CONFIRMED&agencyId=NOBODY', undefined, stack.keys.auth('ops'));
    expect(none.body).toEqual({ bookings: [] });
  });

  it('a batch of two runs both as child bookings and reports progress', async () => {
    // Dates of their own: earlier tests sold the cheapest seats of the +30 days flight, and two
    // concurrent bookings racing for the last seat of a bucket may rightly lose it (NO_SEATS).
    const intents = [
      oneWayIntent({ agencyId: 'AGBATCH', card: DEBIT_CARD }),
      oneWayIntent({ agencyId: 'AGBATCH', card: CREDIT_CARD }),
    ];
    intents[0]!.journey.departureDate = addDays(new Date(), 61);
    intents[1]!.journey.departureDate = addDays(new Date(), 62);
    const agbatch = stack.keys.auth('agbatch');
    const posted = await api('POST', '/batches', intents, { 'Idempotency-Key': 'batch-flow-1', ...agbatch });
    expect(posted.status).toBe(202);
    expect(posted.body).toEqual({
      id: 'batch:AGBATCH:batch-flow-1',
      total: 2,
      existing: false,
      links: { self: '/batches/batch%3AAGBATCH%3Abatch-flow-1' },
    });
    const done = await pollUntil(
      'the batch to finish',
      async () => {
        const r = await api('GET', '/batches/batch:AGBATCH:batch-flow-1', undefined, agbatch);
        return r.status === 200 && r.body.done ? r.body : undefined;
      },
      120_000,
    );
    const children: [string, string, unknown][] = [];
    for (const b of done.bookings) {
      bookingIds.push(b.id);
      const v = await api('GET', b.links.self, undefined, agbatch);
      children.push([b.id, v.body.status, v.body.error]);
    }
    expect(children).toEqual([
      ['batch:AGBATCH:batch-flow-1-0', 'CONFIRMED', undefined],
      ['batch:AGBATCH:batch-flow-1-1', 'CONFIRMED', undefined],
    ]);
    expect(done).toMatchObject({
      total: 2,
      pending: 0,
      running: 0,
      confirmed: 2,
      held: 0,
      failed: 0,
      cancelled: 0,
      escalated: 0,
    });
  });

  it('GET /health: 200 with Temporal and the airline up', async () => {
    const r = await api('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(r.body.temporal).toMatchObject({ status: 'up', address: temporalTestAddress() });
    expect(r.body.airlines).toEqual({ ZZ: { status: 'up', url: `${stack.airlineUrl}/health`, httpStatus: 200 } });
  });

  it('the codec endpoint decodes real history payloads with the card masked', async () => {
    const id = bookingIds[0]!;
    const stdout = await workflowHistoryJson(id);
    const history = JSON.parse(stdout);
    const events = history.events as any[];
    const started = events.find((e) => e.workflowExecutionStartedEventAttributes !== undefined);
    const input = started.workflowExecutionStartedEventAttributes.input.payloads as {
      metadata: Record<string, string>;
      data: string;
    }[];
    expect(Buffer.from(input[0]!.metadata.encoding!, 'base64').toString()).toBe('binary/encrypted');
    const r = await api(
      'POST',
      '/codec/decode',
      { payloads: input },
      {
        'X-Namespace': temporalTestNamespace(),
        Origin: 'http://localhost:8233',
        ...stack.keys.auth('ops'),
      },
    );
    expect(r.status).toBe(200);
    const intent = JSON.parse(Buffer.from(r.body.payloads[0].data, 'base64').toString());
    expect(intent.agency).toEqual({ id: 'AGFLOW', name: 'Test Travel' });
    expect(intent.payment.card.number).not.toBe(CREDIT_CARD);
    expect(intent.payment.card.number).toMatch(/1111$/);
    expect(intent.payment.card.verificationCode).not.toBe(TEST_CVV);
  });

  it('card-data leak check: histories, logs and API answers never hold a card number, the CVV or a CAVV', async () => {
    expect(bookingIds.length).toBeGreaterThanOrEqual(3);
    const haystacks: [string, string][] = [];
    for (const id of bookingIds) {
      const stdout = await workflowHistoryJson(id);
      expect(stdout.length).toBeGreaterThan(1000);
      haystacks.push([`history of ${id}`, stdout]);
    }
    haystacks.push(['captured logs and API answers', captured.join('\n')]);
    for (const [what, text] of haystacks) {
      for (const key of stack.keys.all()) expect([what, text.includes(key)]).toEqual([what, false]);
    }
    for (const [what, text] of haystacks) {
      for (const card of [CREDIT_CARD, CREDIT_CARD_2, DEBIT_CARD, THREE_DS_CARD]) {
        expect([what, text.includes(card)]).toEqual([what, false]);
      }
      expect([what, text.includes(TEST_CAVV)]).toEqual([what, false]);
      expect([what, text.includes(`"${TEST_CVV}"`)]).toEqual([what, false]);
      expect([what, /verificationCode\W{1,6}\d{3,4}\b/.test(text)]).toEqual([what, false]);
    }
  });
});

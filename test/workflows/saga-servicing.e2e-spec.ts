/**
 * The order after the booking, end to end (issue 26): through the API, the production worker (real
 * activities, real NDC client) on the jest Temporal dev server, and the real embedded airline over
 * HTTP with its fault simulator (test/api/stack.ts). Every amount is read from the airline's own
 * records of the order (its store) and compared with what the booking shows. The same flows with
 * mocked activities: test/workflows/booking-servicing.e2e-spec.ts, test/api/servicing-api.e2e-spec.ts.
 */
import 'reflect-metadata';
import type { ServicingConfig } from '../../src/airline/airline.config';
import { AirlineStore, type StoredOrder } from '../../src/airline/store/airline.store';
import type { ApiConfig } from '../../src/api/config/api.config';
import { API_CONFIG } from '../../src/api/common/api.tokens';
import { BOOKING_WORKFLOW } from '../../src/booking/booking.model';
import { add, percentOf, subtract } from '../../src/common/decimal';
import { clearFaults } from '../airline/airline-harness';
import { addDays, CREDIT_CARD, DEBIT_CARD, oneWayIntent } from '../api/intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from '../api/stack';

jest.setTimeout(180_000);

const GBP = (value: string) => ({ value, currency: 'GBP' });
/** The embedded airline's servicing card fee (profile `servicingCardFeePercent`, its default). */
const withCardFee = (value: string) => add(2, value, percentOf(value, '2', 2));
const LONG: ServicingConfig = {
  holdMs: 86_400_000,
  priceGuaranteeMs: 86_400_000,
  changeOfferTtlMs: 900_000,
  holdDeniedAgencies: [],
};

/** `YYYY-MM-DD`: the first date at least `days` from today that falls on `weekday` (0 Sunday). */
function dayOnOrAfter(days: number, weekday: number): string {
  const from = new Date(`${addDays(new Date(), days)}T00:00:00Z`);
  return addDays(from, (weekday - from.getUTCDay() + 7) % 7);
}

const TUESDAY = 2;
const FRIDAY = 5;

type Intent = ReturnType<typeof oneWayIntent>;

/** The booking's id and path, and what the API and the airline say of it. */
class Booked {
  constructor(
    private readonly stack: Stack,
    readonly id: string,
  ) {}

  get path(): string {
    return `/bookings/${encodeURIComponent(this.id)}`;
  }

  async view(): Promise<any> {
    const r = await call(this.stack, 'GET', this.path);
    expect(r.status).toBe(200);
    return r.body;
  }

  /** The airline's record of the order. */
  async order(): Promise<StoredOrder> {
    const view = await this.view();
    const stored = this.stack.airline.get(AirlineStore).getOrder(view.order.orderId);
    expect(stored).toBeDefined();
    return stored!;
  }

  post(route: string, body?: unknown, headers?: Record<string, string>) {
    return call(this.stack, 'POST', `${this.path}/${route}`, body, headers);
  }

  get(route: string) {
    return call(this.stack, 'GET', `${this.path}/${route}`);
  }
}

/** The last charge the airline took for the order. */
function lastCharge(order: StoredOrder) {
  const charges = order.content!.charges;
  return charges[charges.length - 1]!.amount;
}

/** The total of the order's items without the card surcharge items (what a reprice prices). */
function fareTotal(order: StoredOrder): string {
  return add(
    2,
    '0',
    ...order.content!.items.filter((i) => !i.offerItemId.includes('CCF2')).map((i) => i.priceDetail.total.value),
  );
}

function startServicingStack(prefix: string, servicing: ServicingConfig, airlineTimeoutMs = 20_000) {
  return startStack({ prefix, airline: { servicing }, airlineTimeoutMs });
}

describe('servicing against the real airline (API, worker, airline)', () => {
  let stack: Stack;
  let store: AirlineStore;
  let sequence = 0;

  beforeAll(async () => {
    // A short airline timeout: an OrderChange whose answer the airline withholds is given up soon.
    stack = await startServicingStack('saga-servicing', { ...LONG, priceGuaranteeMs: 1000 }, 8000);
    store = stack.airline.get(AirlineStore);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  afterEach(async () => {
    await clearFaults(stack.airlineUrl);
  });

  /** A one-way LGW-OSL intent of AGENCY1 on a date of its own (no two bookings share a flight). */
  function intent(options: { card?: string; weekday?: number } = {}): Intent {
    sequence += 1;
    const value = oneWayIntent({ card: options.card ?? CREDIT_CARD });
    value.journey.departureDate = dayOnOrAfter(14 + sequence * 7, options.weekday ?? TUESDAY);
    return value;
  }

  function held(value: Intent) {
    const { card: _card, ...rest } = value.payment;
    return { ...value, payment: { ...rest, hold: true } };
  }

  async function book(value: object, status: string): Promise<Booked> {
    const accepted = await call(stack, 'POST', '/bookings', value);
    expect(accepted.status).toBe(202);
    await waitForBooking(stack, accepted.body.id, status);
    return new Booked(stack, accepted.body.id);
  }

  it('hold, then pay: CONFIRMED, the airline charged the price plus its 2 % card fee (a debit card: none)', async () => {
    for (const [card, fee] of [
      [CREDIT_CARD, true],
      [DEBIT_CARD, false],
    ] as const) {
      const value = intent({ card });
      const booking = await book(held(value), 'HELD');
      const before = await booking.order();
      const view = await booking.view();
      expect([before.status, before.version, before.content!.charges]).toEqual(['held', 1, []]);
      expect(view.payment).toEqual({
        status: 'due',
        amount: before.view.orders[0]!.totalOrderPrice,
        dueBy: before.paymentDueAt,
        priceGuaranteedUntil: before.content!.hold!.priceGuaranteedUntil,
      });
      const price = view.payment.amount.value;
      const due = fee ? withCardFee(price) : price;
      const paid = await booking.post('payment', { card: value.payment.card });
      expect([paid.status, paid.body.status, paid.body.payment.status]).toEqual([200, 'CONFIRMED', 'paid']);
      const after = await booking.order();
      expect([after.status, after.version, lastCharge(after)]).toEqual(['live', 2, GBP(due)]);
      expect(paid.body.payment.amount).toEqual(after.view.orders[0]!.totalOrderPrice);
      expect(paid.body.changes).toEqual([
        { at: expect.any(String), kind: 'payment', difference: GBP(due), total: paid.body.order.total },
      ]);
    }
  });
});

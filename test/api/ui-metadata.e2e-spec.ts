/**
 * What the Temporal UI shows of a booking started through the API: its static summary and
 * details (user metadata of the start), and its current details (the SDK's metadata query, which
 * the UI calls) while it waits for a price approval and once it is confirmed with its PNR.
 */
import { workflowMetadataQuery } from '@temporalio/workflow';
import { bookingStaticDetails, bookingSummary } from '../../src/booking/booking.summary';
import { oneWayIntent } from './intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';

describe('Temporal UI metadata of a booking', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ prefix: 'ui-meta' });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  const currentDetails = async (id: string): Promise<string> =>
    (await stack.client.workflow.getHandle(id).query(workflowMetadataQuery)).currentDetails ?? '';

  it('starts with a summary and keeps status, total, PNR and what it waits for until when', async () => {
    const intent = { ...oneWayIntent(), selection: { maxTotal: '1.00' } };
    const posted = await call(stack, 'POST', '/bookings', intent, { 'idempotency-key': `ui-${Date.now()}` });
    expect(posted.status).toBe(202);
    const id = posted.body.id as string;

    const handle = stack.client.workflow.getHandle(id);
    const description = await handle.describe();
    expect(await description.staticSummary()).toBe(bookingSummary(intent));
    expect(await description.staticDetails()).toBe(bookingStaticDetails(intent));
    expect(await description.staticSummary()).toMatch(/^LGW→OSL \d{4}-\d\d-\d\d · agency AGENCY1 · 1 passenger$/);

    const awaiting = await waitForBooking(stack, id, 'AWAITING_APPROVAL');
    const waiting = await pollUntil('awaiting details', async () => {
      const d = await currentDetails(id);
      return d.startsWith('**Status**: AWAITING_APPROVAL') ? d : undefined;
    });
    expect(waiting).toContain(`**Total**: ${awaiting.pricedTotal.value} GBP`);
    expect(waiting).toMatch(
      /\*\*Waiting for\*\*: the agency to approve the new price \(approvePrice\) or cancel until \d{4}-\d\d-\d\dT/,
    );

    // Approve every total the guard stops at (the card surcharge raises it once more).
    const confirmed = await pollUntil(
      'confirmed',
      async () => {
        const view = (await call(stack, 'GET', `/bookings/${encodeURIComponent(id)}`)).body;
        if (view.status === 'AWAITING_APPROVAL')
          await call(stack, 'POST', `/bookings/${encodeURIComponent(id)}/approve-price`);
        return view.status === 'CONFIRMED' ? view : undefined;
      },
      120_000,
    );
    const done = await pollUntil('confirmed details', async () => {
      const d = await currentDetails(id);
      return d.startsWith('**Status**: CONFIRMED') ? d : undefined;
    });
    expect(done).toContain(`**PNR**: ${confirmed.order.bookingReference} (order ${confirmed.order.orderId})`);
    expect(done).toContain(`**Total**: ${confirmed.order.total.value} GBP`);
    // The order's flights (serviceable until the last has departed).
    const [flight] = confirmed.flights;
    expect(done).toContain(`**Flights**: ${flight.flight} ${flight.origin}→${flight.destination} ${flight.departure}`);
    // Regression: serviceableUntil was set after the status, so the first CONFIRMED details had no wait.
    expect(done).toContain(
      `**Waiting for**: servicing requests (changes, bags and seats, refund quotes, cancel) until ${confirmed.serviceableUntil}`,
    );
    expect(done).not.toMatch(/4111|Lovelace/);
  }, 180_000);
});

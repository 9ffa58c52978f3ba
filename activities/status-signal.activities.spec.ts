import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { createStatusSignalActivities } from './status-signal.activities';

/** A client whose handles record the signals sent, or fail with `error`. */
function fakeClient(error?: unknown) {
  const sent: { workflowId: string; signal: string; arg: unknown }[] = [];
  const client = {
    workflow: {
      getHandle: (workflowId: string) => ({
        signal: async (def: { name: string }, arg: unknown) => {
          if (error !== undefined) throw error;
          sent.push({ workflowId, signal: def.name, arg });
        },
      }),
    },
  } as unknown as Client;
  return { client: () => client, sent };
}

const event = {
  id: 'evt_1',
  type: 'booking.confirmed' as const,
  timestamp: '2026-11-23T00:00:00.000Z',
  data: { bookingId: 'b1', agencyId: 'A1', status: 'CONFIRMED' as const },
};

describe('status signal activities', () => {
  it('signal the agency registry and the batch', async () => {
    const fake = fakeClient();
    const activities = createStatusSignalActivities({ client: fake.client });
    expect(await activities.sendWebhookEvent({ agencyId: 'A1', event })).toBe(true);
    const report = { bookingId: 'batch:x:1', status: 'CONFIRMED' as const };
    expect(await activities.reportBookingStatus({ batchId: 'batch:x', report })).toBe(true);
    expect(fake.sent).toEqual([
      { workflowId: 'webhooks:A1', signal: 'webhookEvent', arg: event },
      { workflowId: 'batch:x', signal: 'bookingStatus', arg: report },
    ]);
  });

  it.each([
    ['the client says the workflow is not found', new WorkflowNotFoundError('gone', 'webhooks:A1', undefined)],
    ['gRPC NOT_FOUND over a native connection', Object.assign(new Error('workflow not found'), { code: 5 })],
  ])('answer false when there is nobody to tell: %s', async (_, error) => {
    const activities = createStatusSignalActivities({ client: fakeClient(error).client });
    expect(await activities.sendWebhookEvent({ agencyId: 'A1', event })).toBe(false);
    expect(await activities.reportBookingStatus({ batchId: 'b', report: { bookingId: 'c', status: 'FAILED' } })).toBe(
      false,
    );
  });

  it('let other failures through, so the local activity retries', async () => {
    const unavailable = Object.assign(new Error('connection refused'), { code: 14 });
    const activities = createStatusSignalActivities({ client: fakeClient(unavailable).client });
    await expect(activities.sendWebhookEvent({ agencyId: 'A1', event })).rejects.toThrow('connection refused');
  });
});

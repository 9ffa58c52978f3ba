import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ApiConfig } from '../config/api.config';
import type { WebhookConfig } from './webhook.config';
import { WebhookService } from './webhook.service';

describe('WebhookService wraps keep their cause', () => {
  /** A client whose registry workflow answers every update with `refusal`. */
  const service = (refusal: Error) => {
    const handle = {
      executeUpdate: async () => {
        throw refusal;
      },
    };
    const client = { workflow: { start: async () => handle, getHandle: () => handle } };
    const webhooks: WebhookConfig = {
      retry: {
        initialIntervalMs: 5000,
        backoffCoefficient: 2,
        maximumIntervalMs: 3_600_000,
        maxAgeMs: 259_200_000,
        requestTimeoutMs: 10_000,
      },
      requireHttps: false,
    };
    return new WebhookService(client as never, { taskQueue: 'q' } as ApiConfig, webhooks);
  };

  it('regression: an endpoint the registry refuses is INVALID_WEBHOOK with the refusal as cause', async () => {
    const refusal = new WorkflowUpdateFailedError(
      'update failed',
      ApplicationFailure.nonRetryable('at most 20 endpoints', 'INVALID_WEBHOOK'),
    );
    const err = await service(refusal)
      .create('A', { url: 'https://a.example.com/h', events: ['booking.failed'] }, new Date(0))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'INVALID_WEBHOOK', message: 'at most 20 endpoints', cause: refusal });
  });

  it('regression: deleting from an agency without a registry is WEBHOOK_NOT_FOUND with the lookup as cause', async () => {
    const missing = new WorkflowNotFoundError('not found', 'webhooks:A', undefined);
    const err = await service(missing)
      .remove('A', 'we_0123456789abcdef01234567')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'WEBHOOK_NOT_FOUND',
      message: 'No webhook endpoint with id we_0123456789abcdef01234567',
      cause: missing,
    });
  });
});

/**
 * The local activity that hands a booking's or a batch's event to the agency's webhook registry.
 * A signal sent by the worker's client, not by the workflow: a workflow's signal to another
 * workflow costs two history events and one more workflow task, whether or not the registry
 * exists (most agencies have none); a local activity is one marker event in the workflow task
 * the event belongs to. A retried attempt may signal the same event twice; the registry delivers
 * an event id once (workflows/webhook-registry.workflow.ts).
 */
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import {
  webhookRegistryId,
  type SendWebhookEventInput,
  type WebhookEventActivities,
} from '../src/webhooks/webhook.model';
import { webhookEventSignal } from '../workflows/webhook-definitions';

/** gRPC NOT_FOUND, as the client raises it over a native connection. */
const NOT_FOUND = 5;

export interface WebhookEventActivityDeps {
  /** The client to signal with. Default: the worker's (`Context.current().client`). */
  client?: () => Client;
}

export function createWebhookEventActivities(deps: WebhookEventActivityDeps = {}): WebhookEventActivities {
  const client = deps.client ?? (() => Context.current().client);
  return {
    async sendWebhookEvent({ agencyId, event }: SendWebhookEventInput): Promise<boolean> {
      try {
        await client().workflow.getHandle(webhookRegistryId(agencyId)).signal(webhookEventSignal, event);
        return true;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError || (error as { code?: unknown }).code === NOT_FOUND) return false;
        throw error;
      }
    },
  };
}

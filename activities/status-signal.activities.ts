/**
 * The local activities that tell other workflows of a booking's or a batch's status: its events
 * to the agency's webhook registry, and a batch child's status to its batch. Signals sent by the
 * worker's client, not by the workflow: a workflow's signal to another workflow costs two history
 * events and one more workflow task (whether or not the other workflow exists, and most agencies
 * have no registry); a local activity is one marker event in the workflow task the status change
 * belongs to. A retried attempt may signal twice: the registry delivers an event id once
 * (workflows/webhook-registry.workflow.ts), and a batch records a status it already has as no
 * change (`recordStatus` in workflows/batch.workflow.ts).
 */
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { BatchReportActivities, ReportBookingStatusInput } from '../src/booking/booking.model';
import {
  webhookRegistryId,
  type SendWebhookEventInput,
  type WebhookEventActivities,
} from '../src/webhooks/webhook.model';
import { bookingStatusSignal } from '../workflows/definitions';
import { webhookEventSignal } from '../workflows/webhook-definitions';

/** gRPC NOT_FOUND, as the client raises it over a native connection. */
const NOT_FOUND = 5;

export interface StatusSignalActivityDeps {
  /** The client to signal with. Default: the worker's (`Context.current().client`). */
  client?: () => Client;
}

export type StatusSignalActivities = WebhookEventActivities & BatchReportActivities;

export function createStatusSignalActivities(deps: StatusSignalActivityDeps = {}): StatusSignalActivities {
  const client = deps.client ?? (() => Context.current().client);
  /** Signals `arg` to the workflow `workflowId`; `false` when there is none (or it has closed). */
  const signal = async <A>(workflowId: string, definition: SignalDefinition<[A]>, arg: A): Promise<boolean> => {
    try {
      await client().workflow.getHandle(workflowId).signal(definition, arg);
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError || (error as { code?: unknown }).code === NOT_FOUND) return false;
      throw error;
    }
  };
  return {
    sendWebhookEvent: ({ agencyId, event }: SendWebhookEventInput) =>
      signal(webhookRegistryId(agencyId), webhookEventSignal, event),
    reportBookingStatus: ({ batchId, report }: ReportBookingStatusInput) =>
      signal(batchId, bookingStatusSignal, report),
  };
}

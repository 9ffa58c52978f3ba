/**
 * Updates, signals and queries of the webhook workflows (one registry per agency, one delivery
 * workflow per event and endpoint). The API and the other workflows import these definitions.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  WebhookDelivery,
  WebhookDeliveryReport,
  WebhookEndpoint,
  WebhookEndpointView,
  WebhookEvent,
} from '../src/webhooks/webhook.model';

/**
 * Adds an endpoint (id and secret chosen by the caller) and returns it without the secret.
 * Idempotent: the same id again returns the endpoint already registered.
 */
export const registerWebhookUpdate = defineUpdate<WebhookEndpointView, [WebhookEndpoint]>('registerWebhook');

/** Removes an endpoint and cancels its pending deliveries; `false` when there is no such endpoint. */
export const deleteWebhookUpdate = defineUpdate<boolean, [{ endpointId: string }]>('deleteWebhook');

/** The agency's endpoints, without their secrets. */
export const listWebhooksQuery = defineQuery<WebhookEndpointView[]>('listWebhooks');

/** Recent deliveries of one endpoint, newest first; `undefined` when there is no such endpoint. */
export const webhookDeliveriesQuery = defineQuery<WebhookDelivery[] | undefined, [string]>('webhookDeliveries');

/** An event to deliver to every endpoint subscribed to its type (sent by the booking and batch workflows). */
export const webhookEventSignal = defineSignal<[WebhookEvent]>('webhookEvent');

/** A delivery workflow's report of one attempt. */
export const webhookDeliveryReportSignal = defineSignal<[WebhookDeliveryReport]>('webhookDeliveryReport');

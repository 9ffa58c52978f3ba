/**
 * The webhook registry of one agency: a long-lived entity workflow (id `webhooks:<agency id>`)
 * holding the agency's endpoints (with their signing secrets, encrypted like every payload) and
 * their recent deliveries. Updates register and delete, queries list, the `webhookEvent` signal
 * fans an event out to one delivery workflow per subscribed endpoint. It never completes: it
 * continues as new when its history grows, carrying its state.
 */
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  MAX_ATTEMPTS_KEPT,
  MAX_DELIVERIES_KEPT,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_EVENT_TYPES,
  webhookDeliveryId,
  type WebhookDelivery,
  type WebhookDeliveryReport,
  type WebhookEndpoint,
  type WebhookEndpointView,
  type WebhookEvent,
  type WebhookRegistryInput,
} from '../src/webhooks/webhook.model';
import {
  deleteWebhookUpdate,
  listWebhooksQuery,
  registerWebhookUpdate,
  webhookDeliveriesQuery,
  webhookDeliveryReportSignal,
  webhookEventSignal,
} from './webhook-definitions';
import { webhookDeliveryWorkflow } from './webhook-delivery.workflow';

/** Default history length after which the registry continues as new. */
export const DEFAULT_REGISTRY_MAX_HISTORY_EVENTS = 2000;

/** Why `endpoint` cannot be registered next to `endpoints`, or `undefined`. Pure; unit-tested. */
export function endpointProblem(endpoint: WebhookEndpoint, endpoints: readonly WebhookEndpoint[]): string | undefined {
  if (endpoints.some((e) => e.id === endpoint.id)) return undefined; // a repeated registration: answered as is
  if (!/^we_[0-9a-f]{24}$/.test(endpoint.id)) return 'endpoint id must be we_ and 24 hex digits';
  if (!/^https?:\/\/[^\s]+$/.test(endpoint.url)) return 'url must be an absolute http(s) URL';
  if (!endpoint.secret.startsWith('whsec_')) return 'secret must start with whsec_';
  if (endpoint.events.length === 0) return 'events must not be empty';
  if (endpoint.events.some((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)))
    return 'unknown event type';
  if (endpoints.length >= MAX_WEBHOOK_ENDPOINTS) return `at most ${MAX_WEBHOOK_ENDPOINTS} endpoints per agency`;
  return undefined;
}

/** The endpoint without its secret. */
export function endpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  const { secret: _secret, ...view } = endpoint;
  return view;
}

/** Applies a delivery workflow's report to the delivery it is about. Pure; unit-tested. */
export function applyReport(delivery: WebhookDelivery, report: WebhookDeliveryReport): void {
  if (delivery.status === 'PENDING' || report.status !== 'PENDING') delivery.status = report.status;
  delivery.attemptCount = Math.max(delivery.attemptCount, report.attempt.attempt);
  if (!delivery.attempts.some((a) => a.attempt === report.attempt.attempt)) {
    delivery.attempts.push(report.attempt);
    delivery.attempts.sort((a, b) => a.attempt - b.attempt);
    if (delivery.attempts.length > MAX_ATTEMPTS_KEPT)
      delivery.attempts.splice(0, delivery.attempts.length - MAX_ATTEMPTS_KEPT);
  }
  if (report.nextAttemptAt !== undefined && delivery.status === 'PENDING')
    delivery.nextAttemptAt = report.nextAttemptAt;
  else delete delivery.nextAttemptAt;
}

/** One agency's registry as this run holds it: written by its handlers only. */
interface Registry {
  readonly workflowId: string;
  readonly agencyId: string;
  readonly endpoints: WebhookEndpoint[];
  readonly deliveries: Record<string, WebhookDelivery[]>;
}

export async function webhookRegistryWorkflow(input: WebhookRegistryInput): Promise<void> {
  const registry: Registry = {
    workflowId: workflowInfo().workflowId,
    agencyId: input.agencyId,
    endpoints: [...(input.endpoints ?? [])],
    deliveries: { ...(input.deliveries ?? {}) },
  };
  const maxHistoryEvents = input.maxHistoryEvents ?? DEFAULT_REGISTRY_MAX_HISTORY_EVENTS;
  listenForEndpoints(registry);
  listenForEvents(registry);
  await condition(() => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= maxHistoryEvents);
  await condition(allHandlersFinished);
  const { agencyId, endpoints, deliveries } = registry;
  await continueAsNew<typeof webhookRegistryWorkflow>({ agencyId, endpoints, deliveries, maxHistoryEvents });
}

/** Register, delete and list endpoints; list an endpoint's deliveries. */
function listenForEndpoints({ endpoints, deliveries }: Registry): void {
  setHandler(
    registerWebhookUpdate,
    (endpoint) => {
      const existing = endpoints.find((e) => e.id === endpoint.id);
      if (existing !== undefined) return endpointView(existing);
      endpoints.push(endpoint);
      deliveries[endpoint.id] = [];
      return endpointView(endpoint);
    },
    {
      validator: (endpoint) => {
        const problem = endpointProblem(endpoint, endpoints);
        if (problem !== undefined) throw ApplicationFailure.nonRetryable(problem, 'INVALID_WEBHOOK');
      },
    },
  );
  setHandler(deleteWebhookUpdate, async ({ endpointId }) => {
    const index = endpoints.findIndex((e) => e.id === endpointId);
    if (index < 0) return false;
    endpoints.splice(index, 1);
    const pending = (deliveries[endpointId] ?? []).filter((d) => d.status === 'PENDING');
    delete deliveries[endpointId];
    await Promise.all(pending.map((d) => cancelDelivery(d.id)));
    return true;
  });
  setHandler(listWebhooksQuery, () => endpoints.map(endpointView));
  setHandler(webhookDeliveriesQuery, (endpointId) =>
    endpoints.some((e) => e.id === endpointId) ? (deliveries[endpointId] ?? []) : undefined,
  );
}

/** An event fans out to one delivery per subscribed endpoint; deliveries report back. */
function listenForEvents(registry: Registry): void {
  const { endpoints, deliveries } = registry;
  setHandler(webhookEventSignal, async (event) => {
    const targets = endpoints.filter((e) => e.events.includes(event.type));
    await Promise.all(targets.map((endpoint) => deliver(registry, endpoint, event)));
  });
  setHandler(webhookDeliveryReportSignal, async (report) => {
    const delivery = deliveries[report.endpointId]?.find((d) => d.id === report.deliveryId);
    if (delivery !== undefined) {
      applyReport(delivery, report);
      return;
    }
    // The endpoint was deleted while the delivery was being started: stop it.
    if (report.status === 'PENDING' && !endpoints.some((e) => e.id === report.endpointId))
      await cancelDelivery(report.deliveryId);
  });
}

async function cancelDelivery(deliveryId: string): Promise<void> {
  try {
    await getExternalWorkflowHandle(deliveryId).cancel();
  } catch {
    // Already finished: nothing to stop.
  }
}

/** Starts the delivery of `event` to `endpoint` (once per event and endpoint). */
async function deliver({ agencyId, workflowId, deliveries }: Registry, endpoint: WebhookEndpoint, event: WebhookEvent) {
  const id = webhookDeliveryId(agencyId, endpoint.id, event.id);
  const list = (deliveries[endpoint.id] ??= []);
  if (list.some((d) => d.id === id)) return; // the same event twice: delivered once
  const delivery: WebhookDelivery = {
    id,
    eventId: event.id,
    eventType: event.type,
    status: 'PENDING',
    createdAt: new Date().toISOString(),
    attemptCount: 0,
    attempts: [],
  };
  list.unshift(delivery);
  if (list.length > MAX_DELIVERIES_KEPT) list.length = MAX_DELIVERIES_KEPT;
  try {
    await startChild(webhookDeliveryWorkflow, {
      workflowId: id,
      args: [
        {
          registryId: workflowId,
          endpoint: { id: endpoint.id, url: endpoint.url, secret: endpoint.secret, retry: endpoint.retry },
          event,
        },
      ],
      // Deliveries outlive this run (it continues as new) and are never started twice.
      parentClosePolicy: 'ABANDON',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    log.warn('webhook delivery could not be started', { deliveryId: id, error: (error as Error).message });
    delivery.status = 'FAILED';
  }
}

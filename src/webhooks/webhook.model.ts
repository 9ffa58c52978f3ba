/**
 * The webhook contract shared by the API, the workflows and the delivery activity.
 * Plain interfaces only: these values cross HTTP and Temporal (always through the encrypting
 * payload codec, since an endpoint carries its signing secret).
 */

/** Every event an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'booking.confirmed',
  'booking.failed',
  'booking.awaiting_approval',
  'booking.authentication_required',
  'booking.cancelled',
  'booking.escalated',
  'booking.awaiting_seat_selection',
  'booking.held',
  'booking.payment_due',
  'booking.expired',
  'booking.changed',
  'booking.airline_change',
  'booking.airline_change_due',
  'batch.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Workflow type names, as registered by the worker (the exports of `workflows/index.ts`; the API's
 * `src/api/common/workflow-contract.ts` does not compile when one names no registered workflow).
 */
export const WEBHOOK_REGISTRY_WORKFLOW = 'webhookRegistryWorkflow';
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';

/** Most endpoints one agency may register. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
/** Deliveries kept (and listed) per endpoint, newest first; older ones are dropped. */
export const MAX_DELIVERIES_KEPT = 100;
/** Attempts kept per delivery (the latest ones); `attemptCount` counts them all. */
export const MAX_ATTEMPTS_KEPT = 20;

/**
 * Task queue of the webhook delivery activities: beside the booking task queue, without the
 * airline's rate limit (src/worker/worker.ts).
 */
export function webhookTaskQueue(bookingTaskQueue: string): string {
  return `${bookingTaskQueue}-webhooks`;
}

/** Id of the long-lived registry workflow of one agency. */
export function webhookRegistryId(agencyId: string): string {
  return `webhooks:${agencyId}`;
}

/** Id of the workflow delivering event `eventId` to endpoint `endpointId` (one per pair: de-duplicates). */
export function webhookDeliveryId(agencyId: string, endpointId: string, eventId: string): string {
  return `webhook-delivery:${agencyId}:${endpointId}:${eventId}`;
}

/** The agency of a {@link webhookDeliveryId} (undefined for any other id). */
export function agencyOfWebhookDelivery(workflowId: string): string | undefined {
  const [kind, agencyId] = workflowId.split(':');
  return kind === 'webhook-delivery' && agencyId !== undefined && agencyId !== '' ? agencyId : undefined;
}

/**
 * The JSON body POSTed to an endpoint (Standard Webhooks: `type`, `timestamp`, `data`), plus the
 * event `id`, which is also the `webhook-id` header: the same on every retry and for every
 * endpoint, so receivers de-duplicate on it.
 */
export interface WebhookEvent {
  /** `evt_<uuid>`. */
  id: string;
  type: WebhookEventType;
  /** ISO 8601 UTC (workflow time of the transition). */
  timestamp: string;
  data: BookingEventData | BatchEventData;
}

export interface BookingEventData {
  bookingId: string;
  agencyId: string;
  status: string;
  /** Set on a booking that belongs to a batch. */
  batchId?: string;
  bookingReference?: string;
  orderId?: string;
  total?: { value: string; currency: string };
  /** `AWAITING_APPROVAL`: the priced total waiting for approval. */
  pricedTotal?: { value: string; currency: string };
  /** The booking's extras as priced (bags, seats), their total and what could not be had. */
  extras?: {
    priced: {
      passenger: number;
      code: string;
      segmentKeys: string[];
      seat?: string;
      price?: { value: string; currency: string };
    }[];
    total?: { value: string; currency: string };
    notes: string[];
  };
  /** `AWAITING_AUTHENTICATION`: where to send the cardholder's browser (3-D Secure), and until when. */
  authentication?: { redirectUrl: string; expiresAt: string };
  /** Refund of a cancelled order, when the airline gave one. */
  refund?: { value: string; currency: string };
  error?: { type: string; message: string; airlineCode?: string };
  /**
   * `ESCALATED`: the response ids the airline's order lookup was asked for; with them the
   * agency (or the airline's desk) can check whether an order exists.
   */
  lookupIds?: string[];
  /** `HELD`, `booking.payment_due`, `EXPIRED`: the held order's payment (what is due, by when). */
  payment?: {
    status: string;
    amount: { value: string; currency: string };
    dueBy?: string;
    priceGuaranteedUntil?: string;
  };
  /** `booking.changed`: the change just made (the last of `changes`). */
  change?: {
    kind: string;
    at: string;
    difference?: { value: string; currency: string };
    penalty?: { value: string; currency: string };
    passengers?: number[];
  };
  /** The order's flights now (servicing events). */
  flights?: { flight: string; origin: string; destination: string; departure: string; arrival?: string }[];
  /** `booking.airline_change`, `booking.airline_change_due`: what the airline changed, by when to answer, what was done. */
  airlineChange?: {
    kind: string;
    detectedBy: string;
    reason?: string;
    shiftMinutes?: number;
    actionBy?: string;
    actions: string[];
    action?: { taken: string; by: string; at: string };
  };
}

export interface BatchEventData {
  batchId: string;
  agencyId: string;
  status: string;
  total: number;
  confirmed: number;
  failed: number;
  cancelled: number;
  bookings: { id: string; status: string }[];
}

/**
 * Retry schedule of an endpoint, fixed when it is registered (from the API's configuration):
 * attempt, wait `initialIntervalMs`, then each wait `backoffCoefficient` times the previous, at
 * most `maximumIntervalMs`, until `maxAgeMs` after the first attempt.
 */
export interface WebhookRetryPolicy {
  /** Default 5000. */
  initialIntervalMs: number;
  /** Default 2. */
  backoffCoefficient: number;
  /** Default 3 600 000 (1 h). */
  maximumIntervalMs: number;
  /** Default 259 200 000 (72 h). */
  maxAgeMs: number;
  /** Per-attempt HTTP timeout. Default 10000. */
  requestTimeoutMs: number;
}

/** An endpoint as the registry holds it. `secret` never leaves Temporal except in the create answer. */
export interface WebhookEndpoint {
  /** `we_<24 hex>`. */
  id: string;
  url: string;
  events: WebhookEventType[];
  description?: string;
  /** `whsec_<base64 of 32 random bytes>`. */
  secret: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  retry: WebhookRetryPolicy;
}

/** An endpoint as listed: everything but the secret. */
export type WebhookEndpointView = Omit<WebhookEndpoint, 'secret'>;

export type WebhookDeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'CANCELLED';

export interface WebhookAttempt {
  /** 1-based. */
  attempt: number;
  /** ISO 8601 UTC, when the request was sent. */
  at: string;
  durationMs: number;
  /** HTTP status of the answer, when there was one. */
  httpStatus?: number;
  /** Why it failed (`HTTP 503`, `timeout after 10000 ms`, `ECONNREFUSED`, ...). */
  error?: string;
}

export interface WebhookDelivery {
  /** Delivery workflow id. */
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  status: WebhookDeliveryStatus;
  /** ISO 8601 UTC. */
  createdAt: string;
  attemptCount: number;
  /** The latest attempts (at most {@link MAX_ATTEMPTS_KEPT}), oldest first. */
  attempts: WebhookAttempt[];
  /** While `PENDING` after a failed attempt: when the next one is due. */
  nextAttemptAt?: string;
}

/** What a delivery workflow reports to its registry after each attempt. */
export interface WebhookDeliveryReport {
  deliveryId: string;
  endpointId: string;
  status: WebhookDeliveryStatus;
  attempt: WebhookAttempt;
  nextAttemptAt?: string;
}

/** Input (and continue-as-new state) of the registry workflow. */
export interface WebhookRegistryInput {
  agencyId: string;
  endpoints?: WebhookEndpoint[];
  /** Per endpoint id, newest first. */
  deliveries?: Record<string, WebhookDelivery[]>;
  /** Continue as new once the history has this many events (or the server suggests it). Default 2000. */
  maxHistoryEvents?: number;
}

/** Input of one delivery workflow. */
export interface WebhookDeliveryInput {
  registryId: string;
  endpoint: Pick<WebhookEndpoint, 'id' | 'url' | 'secret' | 'retry'>;
  event: WebhookEvent;
}

/** Input of the `deliverWebhook` activity: one signed POST. */
export interface DeliverWebhookInput {
  url: string;
  secret: string;
  /** `webhook-id`: the event id. */
  messageId: string;
  /** The exact JSON body (signed as is). */
  body: string;
  timeoutMs: number;
}

export interface DeliverWebhookResult {
  ok: boolean;
  at: string;
  durationMs: number;
  httpStatus?: number;
  error?: string;
}

/** Workflow-side view of the delivery activity. */
export interface WebhookActivities {
  deliverWebhook(input: DeliverWebhookInput): Promise<DeliverWebhookResult>;
}

/** An event for an agency's webhook registry (`sendWebhookEvent`). */
export interface SendWebhookEventInput {
  agencyId: string;
  event: WebhookEvent;
}

/**
 * Workflow-side view of the local activity that hands booking and batch events to the agency's
 * registry (activities/status-signal.activities.ts).
 */
export interface WebhookEventActivities {
  /** Signals the event to the registry: `true`, or `false` when the agency has no registry. */
  sendWebhookEvent(input: SendWebhookEventInput): Promise<boolean>;
}

/**
 * The Temporal contract of the API: the workflows it starts and reads, typed by their functions
 * under the names the worker registers them by (`workflows/index.ts`), so a name that is not a
 * registered workflow does not compile. Type-only: the API never loads workflow code.
 *
 * `client.workflow.start<BookingWorkflow>(BOOKING_WORKFLOW, { args })` checks the arguments and
 * `getHandle<BookingWorkflow>(id).result()` is a `BookingResult`; the signals, queries and updates
 * are the definitions of `workflows/definitions.ts` and `workflows/webhook-definitions.ts`.
 */
import type * as registered from '../../../workflows';
import type { BATCH_WORKFLOW, BOOKING_WORKFLOW } from '../../booking/booking.model';
import type { WEBHOOK_REGISTRY_WORKFLOW } from '../../webhooks/webhook.model';

type Registered = typeof registered;

/** `bookingWorkflow(intent, options?)`: one booking (workflows/booking.workflow.ts). */
export type BookingWorkflow = Registered[typeof BOOKING_WORKFLOW];
/** `batchWorkflow(input)`: many intents as child bookings (workflows/batch.workflow.ts). */
export type BatchWorkflow = Registered[typeof BATCH_WORKFLOW];
/** `webhookRegistryWorkflow(input)`: one agency's webhook endpoints (workflows/webhook-registry.workflow.ts). */
export type WebhookRegistryWorkflow = Registered[typeof WEBHOOK_REGISTRY_WORKFLOW];

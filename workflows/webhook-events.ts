/**
 * The hook the booking and batch workflows call at their status transitions: it sends the event
 * to the agency's webhook registry workflow, which delivers it to the subscribed endpoints.
 * An agency that never registered an endpoint has no registry; the event is then dropped (there
 * is nobody to deliver it to). Guarded by a patch marker, so histories recorded before webhooks
 * existed replay unchanged. Since the patch `status-local-signal`, the event and a batch child's
 * status report go by local activity (one marker event each, activities/status-signal.activities.ts);
 * histories from before signal the registry and the batch from the workflow.
 */
import {
  CancellationScope,
  getExternalWorkflowHandle,
  log,
  patched,
  proxyLocalActivities,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  BatchReportActivities,
  BookingState,
  BookingStatus,
  BookingStatusReport,
} from '../src/booking/booking.model';
import {
  webhookRegistryId,
  type BatchEventData,
  type BookingEventData,
  type WebhookEvent,
  type WebhookEventActivities,
  type WebhookEventType,
} from '../src/webhooks/webhook.model';
import { bookingStatusSignal } from './definitions';
import { webhookEventSignal } from './webhook-definitions';

/** Patch id guarding the webhook signal in the booking and batch workflows. */
export const WEBHOOK_EVENTS_PATCH = 'webhook-events';
/** Patch id guarding `booking.escalated` (histories that escalated before it replay without). */
export const WEBHOOK_ESCALATED_PATCH = 'webhook-escalated';
/** Patch id of sending events and batch reports by local activity instead of a signal from the workflow. */
export const STATUS_LOCAL_SIGNAL_PATCH = 'status-local-signal';

const { sendWebhookEvent, reportBookingStatus } = proxyLocalActivities<WebhookEventActivities & BatchReportActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', maximumInterval: '5s', maximumAttempts: 10 },
});

/**
 * The event a booking status emits, if any (`RUNNING`, `SETTLING` and `CANCELLING` emit none).
 * `ESCALATED`: whether an order exists must be checked by hand; the agency is told so, with the
 * ids to check.
 */
export function bookingEventType(status: BookingStatus): WebhookEventType | undefined {
  switch (status) {
    case 'CONFIRMED':
      return 'booking.confirmed';
    case 'FAILED':
      return 'booking.failed';
    case 'AWAITING_APPROVAL':
      return 'booking.awaiting_approval';
    case 'AWAITING_SEAT_SELECTION':
      return 'booking.awaiting_seat_selection';
    case 'AWAITING_AUTHENTICATION':
      return 'booking.authentication_required';
    case 'CANCELLED':
      return 'booking.cancelled';
    case 'ESCALATED':
      return 'booking.escalated';
    case 'HELD':
      return 'booking.held';
    case 'EXPIRED':
      return 'booking.expired';
    case 'ACTION_REQUIRED':
      return 'booking.airline_change';
    case 'RUNNING':
    case 'SETTLING':
    case 'CHANGING':
    case 'CANCELLING':
      return undefined;
  }
}

/** The event data of a booking in `state` (no passenger or card data). */
export function bookingEventData(
  bookingId: string,
  agencyId: string,
  state: BookingState,
  batchId?: string,
): BookingEventData {
  const data: BookingEventData = { bookingId, agencyId, status: state.status };
  if (batchId !== undefined) data.batchId = batchId;
  if (state.order !== undefined) {
    data.bookingReference = state.order.bookingReference;
    data.orderId = state.order.orderId;
    data.total = { ...state.order.total };
  }
  if (state.status === 'AWAITING_APPROVAL' && state.pricedTotal !== undefined)
    data.pricedTotal = { ...state.pricedTotal };
  if (state.extras !== undefined) {
    data.extras = {
      priced: state.extras.priced.map((p) => ({
        passenger: p.passenger,
        code: p.code,
        segmentKeys: [...p.segmentKeys],
        ...(p.seat !== undefined ? { seat: p.seat } : {}),
        ...(p.price !== undefined ? { price: { ...p.price } } : {}),
      })),
      ...(state.extras.total !== undefined ? { total: { ...state.extras.total } } : {}),
      notes: [...state.extras.notes],
    };
  }
  if (state.status === 'AWAITING_AUTHENTICATION' && state.authentication !== undefined)
    data.authentication = { redirectUrl: state.authentication.redirectUrl, expiresAt: state.authentication.expiresAt };
  const refund = (state as { cancellation?: { refund?: { value: string; currency: string } } }).cancellation?.refund;
  if (refund !== undefined) data.refund = { ...refund };
  if (state.status === 'ESCALATED' && state.settling !== undefined) data.lookupIds = [...state.settling.lookupIds];
  Object.assign(data, servicingData(state));
  if (state.error !== undefined) {
    data.error = { type: state.error.type, message: state.error.message };
    if (state.error.airlineCode !== undefined) data.error.airlineCode = state.error.airlineCode;
  }
  return data;
}

/** What a serviceable booking's events add: the held order's payment, the last change, the flights. */
function servicingData(
  state: BookingState,
): Pick<BookingEventData, 'payment' | 'change' | 'flights' | 'airlineChange'> {
  const data: Pick<BookingEventData, 'payment' | 'change' | 'flights' | 'airlineChange'> = {};
  const change = state.airlineChange;
  if (change !== undefined && (state.status === 'ACTION_REQUIRED' || change.action !== undefined)) {
    const { kind, detectedBy, reason, shiftMinutes, actionBy, actions, action } = change;
    data.airlineChange = {
      kind,
      detectedBy,
      actions: [...actions],
      ...(reason !== undefined ? { reason } : {}),
      ...(shiftMinutes !== undefined ? { shiftMinutes } : {}),
      ...(actionBy !== undefined ? { actionBy } : {}),
      ...(action !== undefined ? { action: { ...action } } : {}),
    };
  }
  if (state.payment !== undefined) data.payment = { ...state.payment, amount: { ...state.payment.amount } };
  const last = state.changes?.[state.changes.length - 1];
  if (last !== undefined) {
    const { kind, at, difference, penalty, passengers } = last;
    data.change = {
      kind,
      at,
      ...(difference !== undefined ? { difference: { ...difference } } : {}),
      ...(penalty !== undefined ? { penalty: { ...penalty } } : {}),
      ...(passengers !== undefined ? { passengers: [...passengers] } : {}),
    };
  }
  if (state.flights !== undefined)
    data.flights = state.flights.map(({ flight, origin, destination, departure, arrival }) => ({
      flight,
      origin,
      destination,
      departure,
      ...(arrival !== undefined ? { arrival } : {}),
    }));
  return data;
}

/** A new event: id from the workflow's deterministic `uuid4()`, workflow time. */
function newEvent(type: WebhookEventType, data: BookingEventData | BatchEventData): WebhookEvent {
  return { id: `evt_${uuid4()}`, type, timestamp: new Date().toISOString(), data };
}

/** Signals `event` to the agency's registry; an agency without one has nobody to tell. */
async function sendToRegistry(agencyId: string, event: WebhookEvent): Promise<void> {
  if (patched(STATUS_LOCAL_SIGNAL_PATCH)) {
    try {
      const sent = await CancellationScope.nonCancellable(() => sendWebhookEvent({ agencyId, event }));
      if (!sent)
        log.info('no webhook registry for the agency: event not delivered', { type: event.type, eventId: event.id });
    } catch (error) {
      log.warn('the webhook registry could not be told: event not delivered', {
        type: event.type,
        eventId: event.id,
        error: (error as Error).message,
      });
    }
    return;
  }
  try {
    await CancellationScope.nonCancellable(() =>
      getExternalWorkflowHandle(webhookRegistryId(agencyId)).signal(webhookEventSignal, event),
    );
  } catch {
    log.info('no webhook registry for the agency: event not delivered', { type: event.type, eventId: event.id });
  }
}

/** Sends `type` with `data` to the agency's webhook registry (workflow code only). */
export async function emitWebhookEvent(
  agencyId: string,
  type: WebhookEventType,
  data: BookingEventData | BatchEventData,
): Promise<void> {
  if (!patched(WEBHOOK_EVENTS_PATCH)) return;
  await sendToRegistry(agencyId, newEvent(type, data));
}

/**
 * The hook of the booking workflow, called at each status change with its state: tells its
 * batch, if it is a batch's child (signal `bookingStatus`, which lets the batch follow a booking
 * that stays open after its final status), and sends the status's event, if it has one, to the
 * agency's webhook registry. Everything is taken from `state` synchronously, so the caller may
 * go on changing it; the returned promise must be awaited before the workflow completes (a
 * signal still in flight then would be lost).
 */
export function emitBookingEvent(
  agencyId: string,
  state: BookingState,
  event: WebhookEventType | null | undefined = bookingEventType(state.status),
): Promise<void> {
  if (!patched(WEBHOOK_EVENTS_PATCH)) return Promise.resolve();
  const info = workflowInfo();
  const parent = info.parent?.workflowId;
  const sends: Promise<void>[] = [];
  if (parent !== undefined) {
    const report: BookingStatusReport = { bookingId: info.workflowId, status: state.status };
    const refund = (state as { cancellation?: { refund?: { value: string; currency: string } } }).cancellation?.refund;
    if (refund !== undefined) report.refund = { ...refund };
    const notTaken = () => log.info('the batch did not take the status report (closed?)', { status: report.status });
    sends.push(
      patched(STATUS_LOCAL_SIGNAL_PATCH)
        ? CancellationScope.nonCancellable(() => reportBookingStatus({ batchId: parent, report })).then(
            (taken) => (taken ? undefined : notTaken()),
            notTaken,
          )
        : CancellationScope.nonCancellable(() =>
            getExternalWorkflowHandle(parent).signal(bookingStatusSignal, report),
          ).catch(notTaken),
    );
  }
  const type = event ?? undefined;
  if (type !== undefined && (type !== 'booking.escalated' || patched(WEBHOOK_ESCALATED_PATCH)))
    sends.push(sendToRegistry(agencyId, newEvent(type, bookingEventData(info.workflowId, agencyId, state, parent))));
  return Promise.all(sends).then(() => undefined);
}

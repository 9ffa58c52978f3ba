/**
 * Bookings over Temporal, the command side: each intent is one `bookingWorkflow` whose id is
 * derived from the agency id and the Idempotency-Key, so the same key never books twice; seats,
 * price approval and cancel go to the running workflow. Every action is scoped to the caller's
 * agency (ops: every agency) through {@link BookingReads.facts}: another agency's booking is
 * answered exactly like an unknown one.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Client, WorkflowUpdateFailedError, type WorkflowExecutionDescription } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { createHash } from 'node:crypto';
import type { SeatChoice } from '../../booking/booking.extras';
import {
  BOOKING_WORKFLOW,
  type BookingIntent,
  type BookingState,
  type BookingWorkflowOptions,
} from '../../booking/booking.model';
import { bookingPriority } from '../../booking/booking.priority';
import { bookingStaticDetails, bookingSummary } from '../../booking/booking.summary';
import {
  approvePriceSignal,
  cancelBookingUpdate,
  cancelSignal,
  selectSeatsUpdate,
} from '../../../workflows/definitions';
import { ApiError } from '../common/api-error';
import { API_CONFIG, TEMPORAL_CLIENT } from '../common/api.tokens';
import type { BookingAccepted, SignalSent } from '../common/api.schemas';
import { FINGERPRINT_MEMO, fingerprint, idempotencyKey, keyReused, MAX_WORKFLOW_ID } from '../common/intake';
import type { Principal } from '../common/principal';
import { startFailure } from '../common/start-failure';
import type { BookingWorkflow } from '../common/workflow-contract';
import { statusFromDescription } from '../common/workflow-reads';
import type { ApiConfig } from '../config/api.config';
import { AuthenticationReturns } from './authentication-return';
import { fieldOf, sendUpdate } from './booking-updates';
import { bookingLinks, BookingReads, notAwaitingSeats } from './booking.reads';

// The API's answers: types inferred from their zod schemas, which the OpenAPI document is derived from.
export type {
  BookingAccepted,
  BookingLinks,
  BookingSummary,
  BookingView,
  SeatMapView,
  SignalSent,
} from '../common/api.schemas';

/**
 * Booking workflow id: `booking:<agencyId>:<key>` (the agency id cannot contain `:`), or, when
 * that would exceed {@link MAX_WORKFLOW_ID}, `booking:<first 40 hex of sha256(agencyId, key)>`.
 * Deterministic either way, so the same agency and key always give the same booking, and two
 * agencies with the same key two bookings.
 */
export function bookingWorkflowId(agencyId: string, key: string): string {
  const readable = `booking:${agencyId}:${key}`;
  if (readable.length <= MAX_WORKFLOW_ID) return readable;
  return `booking:${createHash('sha256').update(`${agencyId}\n${key}`).digest('hex').slice(0, 40)}`;
}

@Injectable()
export class BookingService {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly reads: BookingReads,
    private readonly returns: AuthenticationReturns,
  ) {}

  /**
   * Starts the booking, or returns the one already started with the same agency and key.
   * `intent.agency.id` has been checked against the caller already.
   */
  async create(intent: BookingIntent, keyHeader: string | undefined, requestId: string): Promise<BookingAccepted> {
    const id = bookingWorkflowId(intent.agency.id, idempotencyKey(keyHeader));
    const print = fingerprint(intent);
    // One round trip for a new intent: the start itself. Only when a workflow with this id exists
    // (a retry with the same key, a concurrent request that won the start, or a closed booking,
    // which is never booked again) is it described, to answer it or refuse a reused key.
    try {
      await this.client.workflow.start<BookingWorkflow>(BOOKING_WORKFLOW, {
        workflowId: id,
        taskQueue: this.config.taskQueue,
        args: [intent, this.workflowOptions(id, requestId)],
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        // A customer is waiting: ahead of batch children in the airline's rate-limited queue.
        priority: bookingPriority('interactive', intent.agency.id, this.config.priorities),
        memo: { [FINGERPRINT_MEMO]: print },
        searchAttributes: {
          BookingStatus: ['RUNNING'],
          AgencyId: [intent.agency.id],
          Route: [`${intent.journey.origin}-${intent.journey.destination}`],
        },
        // What the Temporal UI lists and shows for it (no names, cards or contacts).
        staticSummary: bookingSummary(intent),
        staticDetails: bookingStaticDetails(intent),
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw await startFailure(this.client, err);
      return existing(await this.reads.handle(id).describe(), print);
    }
    return { id, status: 'RUNNING', existing: false, links: bookingLinks(id) };
  }

  /** The deployment's workflow defaults, with this booking's correlation id and 3-D Secure return URLs. */
  private workflowOptions(id: string, requestId: string): BookingWorkflowOptions {
    const options: BookingWorkflowOptions = {
      ...this.config.workflowDefaults,
      correlationId: requestId,
      authenticationReturn: this.returns.urlsOf(id),
    };
    if (this.config.approvalTimeoutMs !== undefined) options.approvalTimeoutMs = this.config.approvalTimeoutMs;
    return options;
  }

  /**
   * The traveller's seats for a booking in `AWAITING_SEAT_SELECTION`: the `selectSeats` update,
   * whose validator refuses a taken or unknown seat, an unknown passenger or segment (422, the
   * booking keeps waiting).
   */
  async selectSeats(id: string, caller: Principal, seats: SeatChoice[]): Promise<SignalSent> {
    const { description, state } = await this.reads.facts(id, caller);
    if (description.status.name !== 'RUNNING' || state.status !== 'AWAITING_SEAT_SELECTION') {
      throw notAwaitingSeats(state.status);
    }
    try {
      await this.reads.handle(id).executeUpdate(selectSeatsUpdate, { args: [seats] });
    } catch (error) {
      if (!(error instanceof WorkflowUpdateFailedError)) throw error;
      const why = error.cause?.message ?? error.message;
      throw new ApiError('SEAT_CHOICE_REFUSED', `Seat choice refused: ${why}`, {
        fields: [fieldOf(why)],
        cause: error,
      });
    }
    return { id, status: state.status, signal: selectSeatsUpdate.name, links: bookingLinks(id) };
  }

  /** Sends `approvePrice` to a booking waiting at the price guard. */
  async approvePrice(id: string, caller: Principal): Promise<SignalSent> {
    const { description, state } = await this.reads.facts(id, caller);
    if (description.status.name !== 'RUNNING' || state.status !== 'AWAITING_APPROVAL') {
      throw new ApiError('NOT_AWAITING_APPROVAL', 'The booking is not waiting for a price approval', {
        details: { bookingStatus: state.status },
      });
    }
    await this.reads.handle(id).signal(approvePriceSignal);
    return { id, status: state.status, signal: approvePriceSignal.name, links: bookingLinks(id) };
  }

  /**
   * Cancels a booking. Before its order exists: the `cancel` signal, as always. Once its order
   * exists (CONFIRMED, HELD, being changed...) and while the booking is open (serviceable until its
   * last flight has departed; bookings started before servicing: their cancel window): the
   * `cancelBooking` update, answered once the airline's OrderCancel (or, when that had no answer,
   * reading the order back) has settled it, or within the query timeout with the booking as it is
   * (CANCELLING); the booking is then CANCELLED with its refund. Asked again, the same answer.
   */
  async cancel(id: string, caller: Principal, reason?: string): Promise<SignalSent> {
    const { description, state } = await this.reads.facts(id, caller);
    const open = description.status.name === 'RUNNING';
    if (state.status === 'CANCELLED' && state.cancellation !== undefined) return cancelAnswer(id, state);
    if (state.order !== undefined && !ORDER_GONE.includes(state.status)) {
      if (!open) throw bookingEnded(state.status);
      return this.cancelOrder(id, caller, reason);
    }
    const cancellable = ['RUNNING', 'AWAITING_APPROVAL', 'AWAITING_AUTHENTICATION'].includes(state.status);
    if (!open || state.order !== undefined || !cancellable) {
      throw new ApiError('BOOKING_NOT_CANCELLABLE', 'The booking is finished or its order is being placed', {
        details: { bookingStatus: state.status },
      });
    }
    await this.reads.handle(id).signal(cancelSignal, reason !== undefined ? { reason } : {});
    return { id, status: state.status, signal: cancelSignal.name, links: bookingLinks(id) };
  }

  /** Cancels the order of a booking (the `cancelBooking` update), waiting for it up to the query timeout. */
  private async cancelOrder(id: string, caller: Principal, reason?: string): Promise<SignalSent> {
    const deadline = Date.now() + this.config.queryTimeoutMs;
    try {
      const outcome = await sendUpdate(
        this.client,
        this.reads.handle(id),
        cancelBookingUpdate,
        reason !== undefined ? { reason } : {},
        {
          acceptBy: deadline,
          resultBy: deadline,
        },
      );
      if (outcome.done) return cancelAnswer(id, outcome.value);
    } catch (error) {
      // The workflow closed meanwhile (its flights departed, or a concurrent cancel finished it):
      // answer what it ended with.
      const after = await this.reads.facts(id, caller);
      if (after.state.status === 'CANCELLED' && after.state.cancellation !== undefined) {
        return cancelAnswer(id, after.state);
      }
      if (after.description.status.name !== 'RUNNING') throw bookingEnded(after.state.status, error);
      throw error;
    }
    // Still cancelling (the airline is slow, or a servicing action finishes first): the booking as it is.
    return cancelAnswer(id, (await this.reads.facts(id, caller)).state);
  }
}

/** Statuses in which a booking's order is gone, or never was (nothing to cancel at the airline). */
const ORDER_GONE: readonly BookingState['status'][] = ['CANCELLED', 'EXPIRED', 'FAILED', 'ESCALATED'];

/** The answer to a booking that started before with this id: the same booking, or a reused key. */
function existing(d: WorkflowExecutionDescription, print: string): BookingAccepted {
  if (d.type !== BOOKING_WORKFLOW || d.memo?.[FINGERPRINT_MEMO] !== print) throw keyReused(d.workflowId);
  return {
    id: d.workflowId,
    status: statusFromDescription(d) ?? 'RUNNING',
    existing: true,
    links: bookingLinks(d.workflowId),
  };
}

function cancelAnswer(id: string, state: BookingState): SignalSent {
  return {
    id,
    status: state.status,
    signal: cancelBookingUpdate.name,
    ...(state.cancellation !== undefined ? { cancellation: state.cancellation } : {}),
    links: bookingLinks(id),
  };
}

/** A booking with an order whose workflow has ended: departed, or its cancel window closed (`cause`: the refused update, if any). */
function bookingEnded(status: BookingState['status'], cause?: unknown): ApiError {
  return new ApiError(
    'BOOKING_NOT_CANCELLABLE',
    'The booking has ended (its flights have departed): it can no longer be cancelled',
    {
      details: { bookingStatus: status },
      ...(cause !== undefined ? { cause } : {}),
    },
  );
}

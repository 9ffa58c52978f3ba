/**
 * Bookings over Temporal: each intent is one `bookingWorkflow` whose id is derived from the
 * agency id and the Idempotency-Key, so the same key never books twice. Every read and action is
 * scoped to the caller's agency (ops: every agency): another agency's booking is answered exactly
 * like an unknown one.
 */
import { Inject, Injectable } from '@nestjs/common';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import {
  Client,
  WorkflowHandle,
  WorkflowUpdateFailedError,
  type WorkflowExecutionDescription,
} from '@temporalio/client';
import type { SeatChoice } from '../../booking/booking.extras';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { createHash, randomUUID } from 'node:crypto';
import {
  BOOKING_WORKFLOW,
  type AuthenticationReceipt,
  type AuthenticationReturn,
  type BookingIntent,
  type BookingResult,
  type BookingState,
  type BookingStatus,
  type BookingWorkflowOptions,
} from '../../booking/booking.model';
import {
  approvePriceSignal,
  authenticationResultUpdate,
  cancelBookingUpdate,
  cancelSignal,
  orderViewQuery,
  seatMapQuery,
  selectSeatsUpdate,
  stateQuery,
} from '../../../workflows/definitions';
import { bookingPriority } from '../../booking/booking.priority';
import { bookingStaticDetails, bookingSummary } from '../../booking/booking.summary';
import { API_CONFIG, TEMPORAL_CLIENT } from '../api.tokens';
import { agencyScope, type Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { startFailure } from '../common/start-failure';
import type { ApiConfig } from '../config/api.config';
import { AuthenticationReturns } from './authentication-return';
import { BOOKING_STATUSES, IDEMPOTENCY_KEY_RE, type BookingListQuery } from './booking.dto';

/** Memo key holding the fingerprint of the submitted request (idempotency check). */
export const FINGERPRINT_MEMO = 'requestFingerprint';

// The API's answers: types inferred from their zod schemas, which the OpenAPI document is derived from.
export type {
  BookingAccepted,
  BookingLinks,
  BookingSummary,
  BookingView,
  SeatMapView,
  SignalSent,
} from '../common/api.schemas';
import type {
  BookingAccepted,
  BookingLinks,
  BookingSummary,
  BookingView,
  SeatMapView,
  SignalSent,
} from '../common/api.schemas';

function cancelAnswer(id: string, state: BookingState): SignalSent {
  return {
    id,
    status: state.status,
    signal: cancelBookingUpdate.name,
    ...(state.cancellation !== undefined ? { cancellation: state.cancellation } : {}),
    links: bookingLinks(id),
  };
}

/** Path of a booking resource. */
export function bookingLinks(id: string): BookingLinks {
  const self = `/bookings/${encodeURIComponent(id)}`;
  return { self, order: `${self}/order`, approvePrice: `${self}/approve-price`, cancel: `${self}/cancel` };
}

/**
 * Longest workflow id: the workflow id is the default NDC CorrelationID, which the 17.2 schema
 * limits to 64 characters.
 */
export const MAX_WORKFLOW_ID = 64;

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

/**
 * A fingerprint of a request body for the idempotency check. Card number and CVV are left out
 * (only the last four digits count), so the fingerprint stored in the workflow memo reveals
 * nothing about the card.
 */
export function fingerprint(value: unknown): string {
  const redact = (v: unknown, key?: string): unknown => {
    if (key === 'number' && typeof v === 'string' && /^\d{12,19}$/.test(v)) return `****${v.slice(-4)}`;
    if (key === 'verificationCode' || key === 'cavv') return undefined;
    if (Array.isArray(v)) return v.map((x) => redact(x));
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .map((k) => [k, redact((v as Record<string, unknown>)[k], k)])
          .filter(([, x]) => x !== undefined),
      );
    }
    return v;
  };
  return createHash('sha256')
    .update(JSON.stringify(redact(value)))
    .digest('hex');
}

/** Checks an Idempotency-Key header; returns a fresh key when none was sent. */
export function idempotencyKey(header: string | undefined): string {
  if (header === undefined || header === '') return randomUUID();
  if (!IDEMPOTENCY_KEY_RE.test(header)) {
    throw new ApiError('INVALID_REQUEST', 'Invalid Idempotency-Key header', [
      { path: 'Idempotency-Key', message: 'must be 1 to 100 characters of A-Z a-z 0-9 _ . : -' },
    ]);
  }
  return header;
}

/** The agency a workflow belongs to: its AgencyId search attribute (set when it is started). */
export function agencyOf(d: WorkflowExecutionDescription): string | undefined {
  const v = (d.searchAttributes as Record<string, unknown[] | undefined> | undefined)?.AgencyId?.[0];
  return typeof v === 'string' ? v : undefined;
}

/** True when `principal` may see workflow `d` (ops: every one; an agency: its own). */
export function visibleTo(d: WorkflowExecutionDescription, principal: Principal): boolean {
  const scope = agencyScope(principal);
  return scope === undefined || agencyOf(d) === scope;
}

/** What {@link BookingService.stateOf} learnt about a booking. */
interface BookingFacts {
  description: WorkflowExecutionDescription;
  state: BookingState;
  result?: BookingResult;
  stale?: string;
}

@Injectable()
export class BookingService {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly returns: AuthenticationReturns,
  ) {}

  /**
   * Starts the booking, or returns the one already started with the same agency and key.
   * `intent.agency.id` has been checked against the caller already.
   */
  async create(intent: BookingIntent, keyHeader: string | undefined, requestId: string): Promise<BookingAccepted> {
    const key = idempotencyKey(keyHeader);
    const id = bookingWorkflowId(intent.agency.id, key);
    const print = fingerprint(intent);
    const options: BookingWorkflowOptions = {
      ...this.config.workflowDefaults,
      correlationId: requestId,
      authenticationReturn: this.returns.urlsOf(id),
    };
    if (this.config.approvalTimeoutMs !== undefined) options.approvalTimeoutMs = this.config.approvalTimeoutMs;
    const route = `${intent.journey.origin}-${intent.journey.destination}`;
    // One round trip for a new intent: the start itself. Only when a workflow with this id exists
    // (a retry with the same key, a concurrent request that won the start, or a closed booking,
    // which is never booked again) is it described, to answer it or refuse a reused key.
    try {
      await this.client.workflow.start(BOOKING_WORKFLOW, {
        workflowId: id,
        taskQueue: this.config.taskQueue,
        args: [intent, options],
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        // A customer is waiting: ahead of batch children in the airline's rate-limited queue.
        priority: bookingPriority('interactive', intent.agency.id, this.config.priorities),
        memo: { [FINGERPRINT_MEMO]: print },
        searchAttributes: { BookingStatus: ['RUNNING'], AgencyId: [intent.agency.id], Route: [route] },
        // What the Temporal UI lists and shows for it (no names, cards or contacts).
        staticSummary: bookingSummary(intent),
        staticDetails: bookingStaticDetails(intent),
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw await startFailure(this.client, err);
      return this.existing(await this.client.workflow.getHandle(id).describe(), print);
    }
    return { id, status: 'RUNNING', existing: false, links: bookingLinks(id) };
  }

  private existing(d: WorkflowExecutionDescription, print: string): BookingAccepted {
    if (d.type !== BOOKING_WORKFLOW || d.memo?.[FINGERPRINT_MEMO] !== print) throw keyReused(d.workflowId);
    return {
      id: d.workflowId,
      status: statusFromDescription(d) ?? 'RUNNING',
      existing: true,
      links: bookingLinks(d.workflowId),
    };
  }

  /** Current state of a booking. */
  async get(id: string, caller: Principal): Promise<BookingView> {
    const { state, stale } = await this.stateOf(id, caller);
    return { id, ...state, ...(stale !== undefined ? { stale } : {}), links: bookingLinks(id) };
  }

  /** OrderViewRS XML of a confirmed booking. */
  async order(id: string, caller: Principal): Promise<string> {
    const { description, state, result } = await this.stateOf(id, caller);
    let xml = result?.orderViewXml;
    if (xml === undefined && state.status === 'CONFIRMED' && description.status.name === 'RUNNING') {
      // Open in its cancel window: the workflow answers the XML it confirmed with.
      const handle = this.client.workflow.getHandle(id);
      xml = await this.client
        .withDeadline(Date.now() + this.config.queryTimeoutMs, () => handle.query(orderViewQuery))
        .catch(() => undefined);
    }
    if (state.status !== 'CONFIRMED' || xml === undefined) {
      throw new ApiError('ORDER_NOT_READY', 'The booking has no confirmed order yet', undefined, {
        bookingStatus: state.status,
      });
    }
    return xml;
  }

  /**
   * The seat map of a booking in `AWAITING_SEAT_SELECTION`, from the workflow's state (no airline
   * call), as `{ segments: [{ segment, flight, seats: [...] }] }`.
   */
  async seatMap(id: string, caller: Principal): Promise<SeatMapView> {
    const { description, state } = await this.stateOf(id, caller);
    const maps =
      description.status.name === 'RUNNING' && state.status === 'AWAITING_SEAT_SELECTION'
        ? await this.client
            .withDeadline(Date.now() + this.config.queryTimeoutMs, () =>
              this.client.workflow.getHandle(id).query(seatMapQuery),
            )
            .catch(() => undefined)
        : undefined;
    if (maps === undefined) {
      throw new ApiError('NOT_AWAITING_SEATS', 'The booking is not waiting for a seat selection', undefined, {
        bookingStatus: state.status,
      });
    }
    return {
      segments: maps.segments.map((s) => ({
        segment: s.segment,
        flight: s.flight,
        seats: s.seats.map(({ seat, available, price, currency, zone, characteristics }) => ({
          seat,
          available,
          ...(price !== undefined ? { price } : {}),
          ...(currency !== undefined ? { currency } : {}),
          ...(zone !== undefined ? { zone } : {}),
          characteristics,
        })),
      })),
    };
  }

  /**
   * The traveller's seats for a booking in `AWAITING_SEAT_SELECTION`: the `selectSeats` update,
   * whose validator refuses a taken or unknown seat, an unknown passenger or segment (422, the
   * booking keeps waiting).
   */
  async selectSeats(id: string, caller: Principal, seats: SeatChoice[]): Promise<SignalSent> {
    const { description, state } = await this.stateOf(id, caller);
    if (description.status.name !== 'RUNNING' || state.status !== 'AWAITING_SEAT_SELECTION') {
      throw new ApiError('NOT_AWAITING_SEATS', 'The booking is not waiting for a seat selection', undefined, {
        bookingStatus: state.status,
      });
    }
    try {
      await this.client.workflow.getHandle(id).executeUpdate(selectSeatsUpdate, { args: [seats] });
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError) {
        const why = error.cause?.message ?? error.message;
        throw new ApiError('SEAT_CHOICE_REFUSED', `Seat choice refused: ${why}`, [
          { path: why.split(':')[0] ?? 'seats', message: why },
        ]);
      }
      throw error;
    }
    return { id, status: state.status, signal: selectSeatsUpdate.name, links: bookingLinks(id) };
  }

  /** Sends `approvePrice` to a booking waiting at the price guard. */
  async approvePrice(id: string, caller: Principal): Promise<SignalSent> {
    const { description, state } = await this.stateOf(id, caller);
    if (description.status.name !== 'RUNNING' || state.status !== 'AWAITING_APPROVAL') {
      throw new ApiError('NOT_AWAITING_APPROVAL', 'The booking is not waiting for a price approval', undefined, {
        bookingStatus: state.status,
      });
    }
    await this.client.workflow.getHandle(id).signal(approvePriceSignal);
    return { id, status: state.status, signal: approvePriceSignal.name, links: bookingLinks(id) };
  }

  /**
   * Cancels a booking. Before its order exists: the `cancel` signal, as always. A CONFIRMED booking
   * still in its cancel window (`BOOKING_CANCEL_WINDOW_MS`): the `cancelBooking` update, answered
   * once the airline's OrderCancel (or, when that had no answer, reading the order back) has
   * settled it; the booking is then CANCELLED with its refund. Asked again, the same answer.
   */
  async cancel(id: string, caller: Principal): Promise<SignalSent> {
    const { description, state } = await this.stateOf(id, caller);
    const open = description.status.name === 'RUNNING';
    if (state.status === 'CANCELLED' && state.cancellation !== undefined) return cancelAnswer(id, state);
    if (state.order !== undefined && (state.status === 'CONFIRMED' || state.status === 'CANCELLING')) {
      if (!open) {
        throw new ApiError(
          'BOOKING_NOT_CANCELLABLE',
          'The cancel window of this confirmed booking has closed',
          undefined,
          {
            bookingStatus: state.status,
          },
        );
      }
      const handle = this.client.workflow.getHandle(id);
      try {
        return cancelAnswer(id, await handle.executeUpdate(cancelBookingUpdate, { args: [{}] }));
      } catch (error) {
        // The workflow closed meanwhile (its window ended, or a concurrent cancel finished it):
        // answer what it ended with.
        const after = await this.stateOf(id, caller);
        if (after.state.status === 'CANCELLED' && after.state.cancellation !== undefined)
          return cancelAnswer(id, after.state);
        if (after.description.status.name !== 'RUNNING') {
          throw new ApiError(
            'BOOKING_NOT_CANCELLABLE',
            'The cancel window of this confirmed booking has closed',
            undefined,
            {
              bookingStatus: after.state.status,
            },
          );
        }
        throw error;
      }
    }
    const cancellable = ['RUNNING', 'AWAITING_APPROVAL', 'AWAITING_AUTHENTICATION'].includes(state.status);
    if (!open || state.order !== undefined || !cancellable) {
      throw new ApiError('BOOKING_NOT_CANCELLABLE', 'The booking is finished or its order is being placed', undefined, {
        bookingStatus: state.status,
      });
    }
    await this.client.workflow.getHandle(id).signal(cancelSignal, {});
    return { id, status: state.status, signal: cancelSignal.name, links: bookingLinks(id) };
  }

  /**
   * The cardholder's browser back from 3-D Secure (no credential: the booking's return token).
   * Records the result in the workflow (the first one counts) and answers where to send the
   * browser: the intent's `termUrl` or `failUrl`. A wrong token is answered like an unknown
   * booking. A return after the booking ended changes nothing and is sent where its outcome says.
   */
  async returnFromAuthentication(id: string, token: unknown, returned: AuthenticationReturn): Promise<string> {
    if (!this.returns.accepts(id, token)) throw new ApiError('BOOKING_NOT_FOUND', `No booking with id ${id}`);
    const handle = this.client.workflow.getHandle(id);
    try {
      return (await handle.executeUpdate(authenticationResultUpdate, { args: [returned] })).redirectUrl;
    } catch (error) {
      const description = await describeOrUndefined(handle);
      if (description === undefined) throw new ApiError('BOOKING_NOT_FOUND', `No booking with id ${id}`);
      if (description.status.name === 'RUNNING') throw notAwaitingAuthentication(error);
      const [intent] = (await decodeArrayFromPayloads(
        this.client.options.loadedDataConverter,
        (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads,
      )) as [BookingIntent];
      const state = description.status.name === 'COMPLETED' ? (await handle.result()).state : undefined;
      const approved = state?.authentication?.returned === 'approved' && state.order !== undefined;
      return approved ? intent.securePayment.termUrl : intent.securePayment.failUrl;
    }
  }

  /** An agency posts the 3-D Secure result its own return page received. */
  async postAuthentication(
    id: string,
    caller: Principal,
    returned: AuthenticationReturn,
  ): Promise<{ id: string } & Omit<AuthenticationReceipt, 'redirectUrl'>> {
    const { description } = await this.stateOf(id, caller);
    if (description.status.name !== 'RUNNING') throw notAwaitingAuthentication();
    try {
      const { outcome, first } = await this.client.workflow
        .getHandle(id)
        .executeUpdate(authenticationResultUpdate, { args: [returned] });
      return { id, outcome, first };
    } catch (error) {
      throw notAwaitingAuthentication(error);
    }
  }

  /**
   * Lists bookings from Temporal visibility, newest first: the caller's agency only (ops: every
   * agency, or the one of `agencyId`).
   */
  async list(filter: BookingListQuery, caller: Principal): Promise<{ bookings: BookingSummary[] }> {
    const scope = agencyScope(caller);
    if (scope !== undefined && filter.agencyId !== undefined && filter.agencyId !== scope) {
      throw new ApiError('FORBIDDEN', 'An agency credential lists its own agency only: leave agencyId out');
    }
    const agencyId = scope ?? filter.agencyId;
    // Values are checked against safe alphabets (the zod query schema, the credential), so quoting cannot be broken.
    const clauses = [`WorkflowType = '${BOOKING_WORKFLOW}'`];
    if (filter.status !== undefined) clauses.push(`BookingStatus = '${filter.status}'`);
    if (agencyId !== undefined) clauses.push(`AgencyId = '${agencyId}'`);
    const bookings: BookingSummary[] = [];
    for await (const wf of this.client.workflow.list({
      query: clauses.join(' AND '),
      pageSize: Math.min(filter.limit, 100),
    })) {
      const sa = wf.searchAttributes as Record<string, unknown[] | undefined>;
      const first = (name: string) => (sa[name]?.[0] as string | undefined) ?? undefined;
      bookings.push({
        id: wf.workflowId,
        status: first('BookingStatus'),
        agencyId: first('AgencyId'),
        route: first('Route'),
        airline: first('Airline'),
        bookingReference: first('BookingReference'),
        workflowStatus: wf.status.name,
        startTime: wf.startTime.toISOString(),
        closeTime: wf.closeTime?.toISOString(),
      });
      if (bookings.length >= filter.limit) break;
    }
    return { bookings };
  }

  /**
   * Describes a booking workflow the caller may see and reads its state (query while open,
   * result once closed). Unknown, another type, or another agency's: BOOKING_NOT_FOUND alike.
   */
  private async stateOf(id: string, caller: Principal): Promise<BookingFacts> {
    const handle = this.client.workflow.getHandle<(i: BookingIntent) => Promise<BookingResult>>(id);
    const description = await describeOrUndefined(handle);
    if (description === undefined || description.type !== BOOKING_WORKFLOW || !visibleTo(description, caller)) {
      throw new ApiError('BOOKING_NOT_FOUND', `No booking with id ${id}`);
    }
    if (description.status.name === 'COMPLETED') {
      const result = await handle.result();
      return { description, state: result.state, result };
    }
    if (description.status.name === 'RUNNING') {
      try {
        const state = await this.client.withDeadline(Date.now() + this.config.queryTimeoutMs, () =>
          handle.query(stateQuery),
        );
        return { description, state };
      } catch (err) {
        // Temporal answered the describe, so the query waits for a worker (none polling, or the
        // one holding the workflow died): whatever gRPC code the client reports (DEADLINE_EXCEEDED,
        // CANCELLED, UNAVAILABLE...), answer what the search attributes know. Signals are still
        // delivered once a worker runs the workflow again.
        return {
          description,
          state: { status: statusFromDescription(description) ?? 'RUNNING', steps: [] },
          stale: `no worker answered the state query within ${this.config.queryTimeoutMs} ms; status from the BookingStatus search attribute (${errorName(err)})`,
        };
      }
    }
    // Failed (a bug), terminated, timed out or cancelled by an operator: no business result.
    const closedStatus: BookingStatus = description.status.name === 'CANCELLED' ? 'CANCELLED' : 'FAILED';
    let message = `The booking workflow is ${description.status.name}`;
    if (description.status.name === 'FAILED') {
      try {
        await handle.result();
      } catch (err) {
        message =
          (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
      }
    }
    return {
      description,
      state: { status: closedStatus, steps: [], error: { type: `WORKFLOW_${description.status.name}`, message } },
    };
  }
}

/** A short, safe name of a query failure for the `stale` note (no payloads). */
export function errorName(err: unknown): string {
  const grpc = (err as { cause?: { code?: unknown; details?: unknown } } | null)?.cause;
  const code = typeof grpc?.code === 'number' ? ` gRPC ${grpc.code}` : '';
  return `${(err as Error | null)?.name ?? 'Error'}${code}`;
}

/** The booking was not asked for 3-D Secure, or has ended (the update was refused). */
function notAwaitingAuthentication(error?: unknown): ApiError {
  const reason = (error as { cause?: { message?: string } } | undefined)?.cause?.message;
  return new ApiError(
    'NOT_AWAITING_AUTHENTICATION',
    `The booking is not waiting for a 3-D Secure result${reason !== undefined ? `: ${reason}` : ''}`,
  );
}

export function keyReused(id: string): ApiError {
  return new ApiError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used for a different request',
    undefined,
    {
      id,
    },
  );
}

/** Describes a workflow; undefined when there is none with that id. */
export async function describeOrUndefined(handle: WorkflowHandle): Promise<WorkflowExecutionDescription | undefined> {
  try {
    return await handle.describe();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Status from the BookingStatus search attribute, if set. */
export function statusFromDescription(d: { searchAttributes?: unknown }): BookingStatus | undefined {
  const sa = d.searchAttributes as Record<string, unknown[] | undefined> | undefined;
  const v = sa?.BookingStatus?.[0];
  return typeof v === 'string' && (BOOKING_STATUSES as readonly string[]).includes(v)
    ? (v as BookingStatus)
    : undefined;
}

export function isNotFound(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const name = (err as Error).name;
  return name === 'WorkflowNotFoundError' || (err as { cause?: { code?: number } }).cause?.code === 5;
}

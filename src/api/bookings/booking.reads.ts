/**
 * The read side of bookings: a booking's state, its order, its seat map, and the list. Every read
 * is scoped to the caller's agency (ops: every agency): another agency's booking is answered
 * exactly like an unknown one. The state comes from the workflow: its `state` query while it
 * runs, its result once it has completed, the search attributes when no worker answers.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Client, type WorkflowExecutionDescription, type WorkflowHandle } from '@temporalio/client';
import {
  BOOKING_WORKFLOW,
  type BookingResult,
  type BookingState,
  type BookingStatus,
} from '../../booking/booking.model';
import type { SeatMaps } from '../../booking/booking.extras';
import { orderViewQuery, seatMapQuery, stateQuery } from '../../../workflows/definitions';
import { ApiError } from '../common/api-error';
import { API_CONFIG, TEMPORAL_CLIENT } from '../common/api.tokens';
import type { BookingLinks, BookingSummary, BookingView, SeatMapView } from '../common/api.schemas';
import { agencyScope, type Principal } from '../common/principal';
import type { BookingWorkflow } from '../common/workflow-contract';
import { describeOrUndefined, errorName, statusFromDescription, visibleTo } from '../common/workflow-reads';
import type { ApiConfig } from '../config/api.config';
import type { BookingListQuery } from './booking.dto';

/** Visibility clause leaving out the runs a booking continued as new from (one entry per booking). */
export const LATEST_RUN = "ExecutionStatus != 'ContinuedAsNew'";

/** Statuses in which a booking's order exists at the airline (`GET /bookings/{id}/order` answers it). */
const ORDER_STATUSES: readonly BookingStatus[] = [
  'CONFIRMED',
  'HELD',
  'CHANGING',
  'ACTION_REQUIRED',
  'CANCELLING',
  'AWAITING_APPROVAL',
  'AWAITING_AUTHENTICATION',
];

/** The API's view of a booking: its state, id and links (`stale`: the state is from the search attributes). */
export function viewOf(id: string, state: BookingState, stale?: string): BookingView {
  return { id, ...state, ...(stale !== undefined ? { stale } : {}), links: bookingLinks(id) };
}

/** A seat map as the API shows it (`{ segments: [{ segment, flight, seats: [...] }] }`). */
export function seatMapView(maps: SeatMaps): SeatMapView {
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

/** Paths of a booking resource. */
export function bookingLinks(id: string): BookingLinks {
  const self = `/bookings/${encodeURIComponent(id)}`;
  return { self, order: `${self}/order`, approvePrice: `${self}/approve-price`, cancel: `${self}/cancel` };
}

/** What {@link BookingReads.facts} learnt about a booking. */
export interface BookingFacts {
  description: WorkflowExecutionDescription;
  state: BookingState;
  result?: BookingResult;
  /** Set when no worker answered the state query: why the state is from the search attributes. */
  stale?: string;
}

@Injectable()
export class BookingReads {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  /** The booking workflow `id`, typed by its function. */
  handle(id: string): WorkflowHandle<BookingWorkflow> {
    return this.client.workflow.getHandle<BookingWorkflow>(id);
  }

  /** Runs `read` with the query deadline (API_QUERY_TIMEOUT_MS): a query waits for a worker. */
  private withinQueryTimeout<T>(read: () => Promise<T>): Promise<T> {
    return this.client.withDeadline(Date.now() + this.config.queryTimeoutMs, read);
  }

  /** Current state of a booking. */
  async get(id: string, caller: Principal): Promise<BookingView> {
    const { state, stale } = await this.facts(id, caller);
    return viewOf(id, state, stale);
  }

  /**
   * OrderViewRS XML of a booking whose order exists: confirmed, held, being changed (the order as
   * it is until the change is done). A cancelled or expired booking's order is gone: 409.
   */
  async order(id: string, caller: Principal): Promise<string> {
    const { description, state, result } = await this.facts(id, caller);
    let xml = result?.orderViewXml;
    if (xml === undefined && state.order !== undefined && description.status.name === 'RUNNING') {
      // Open (serviceable, or in its cancel window): the workflow answers the order's latest XML.
      xml = await this.withinQueryTimeout(() => this.handle(id).query(orderViewQuery)).catch(() => undefined);
    }
    if (!ORDER_STATUSES.includes(state.status) || xml === undefined) {
      throw new ApiError('ORDER_NOT_READY', 'The booking has no order (yet)', {
        details: { bookingStatus: state.status },
      });
    }
    return xml;
  }

  /**
   * The seat map of a booking in `AWAITING_SEAT_SELECTION`, from the workflow's state (no airline
   * call), as `{ segments: [{ segment, flight, seats: [...] }] }`.
   */
  async seatMap(id: string, caller: Principal): Promise<SeatMapView> {
    const { description, state } = await this.facts(id, caller);
    const maps =
      description.status.name === 'RUNNING' && state.status === 'AWAITING_SEAT_SELECTION'
        ? await this.withinQueryTimeout(() => this.handle(id).query(seatMapQuery)).catch(() => undefined)
        : undefined;
    if (maps === undefined) throw notAwaitingSeats(state.status);
    return seatMapView(maps);
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
    // A serviceable booking continues as new while it waits for its departure: its runs before
    // the latest are not listed (the latest carries the search attributes on).
    const clauses = [`WorkflowType = '${BOOKING_WORKFLOW}'`, LATEST_RUN];
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
   * result once completed). Unknown, another type, or another agency's: BOOKING_NOT_FOUND alike.
   */
  async facts(id: string, caller: Principal): Promise<BookingFacts> {
    const handle = this.handle(id);
    const description = await describeOrUndefined(handle);
    if (description === undefined || description.type !== BOOKING_WORKFLOW || !visibleTo(description, caller)) {
      throw bookingNotFound(id);
    }
    if (description.status.name === 'COMPLETED') {
      const result = await handle.result();
      return { description, state: result.state, result };
    }
    if (description.status.name === 'RUNNING') return this.runningFacts(handle, description);
    return closedFacts(handle, description);
  }

  /** An open booking: its `state` query, or what the search attributes know when no worker answers. */
  private async runningFacts(
    handle: WorkflowHandle<BookingWorkflow>,
    description: WorkflowExecutionDescription,
  ): Promise<BookingFacts> {
    try {
      return { description, state: await this.withinQueryTimeout(() => handle.query(stateQuery)) };
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
}

/** Failed (a bug), terminated, timed out or cancelled by an operator: no business result. */
async function closedFacts(
  handle: WorkflowHandle<BookingWorkflow>,
  description: WorkflowExecutionDescription,
): Promise<BookingFacts> {
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

/** No booking `id` the caller may see (`cause`: the failed call, if any). */
export function bookingNotFound(id: string, cause?: unknown): ApiError {
  return new ApiError('BOOKING_NOT_FOUND', `No booking with id ${id}`, cause !== undefined ? { cause } : {});
}

/** The booking is not in `AWAITING_SEAT_SELECTION` (it is in `status`). */
export function notAwaitingSeats(status: BookingStatus): ApiError {
  return new ApiError('NOT_AWAITING_SEATS', 'The booking is not waiting for a seat selection', {
    details: { bookingStatus: status },
  });
}

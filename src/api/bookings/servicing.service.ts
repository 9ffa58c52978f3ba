/**
 * The order after the booking (docs/api.md, "After the booking"): each servicing request is one
 * update of the booking's workflow (`workflows/definitions.ts`), whose validator refuses what the
 * booking cannot take now (busy, not serviceable, an unknown or expired offer, ...). Reads
 * (change offers, services, seat map, refund quote) wait for their answer; actions that may wait
 * long (a payment's 3-D Secure or price approval) answer within the query timeout, or 202 with the
 * booking as it is. Every request is scoped to the caller's agency through {@link BookingReads.facts}.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { BookingState } from '../../booking/booking.model';
import type {
  AddServicesRequest,
  AirlineChangeAnswer,
  ChangeOffersRequest,
  ChangeTripRequest,
  PayRequest,
} from '../../booking/servicing.model';
import { currencyScale, subtract } from '../../common/decimal';
import {
  addServicesUpdate,
  answerAirlineChangeUpdate,
  cancelQuoteUpdate,
  changeOffersUpdate,
  changeTripUpdate,
  orderSeatMapUpdate,
  orderServicesUpdate,
  payBookingUpdate,
  removePassengersUpdate,
} from '../../../workflows/definitions';
import { ApiError } from '../common/api-error';
import { API_CONFIG, TEMPORAL_CLIENT } from '../common/api.tokens';
import type {
  ChangeOffersAnswer,
  OrderServicesAnswer,
  RefundQuoteAnswer,
  SeatMapView,
  ServicingAnswer,
} from '../common/api.schemas';
import type { Principal } from '../common/principal';
import type { ApiConfig } from '../config/api.config';
import { callUpdate, sendUpdate, updateFailure, updateIdOf, type UpdateOutcome } from './booking-updates';
import { BookingReads, notAwaitingSeats, seatMapView, viewOf, type BookingFacts } from './booking.reads';
import type { CancelBody, CancelQuoteBody } from './servicing.dto';

/** A servicing action's answer: `done` (200) or still running at the deadline (202, the booking as it is). */
export interface ServicingOutcome {
  done: boolean;
  view: ServicingAnswer;
}

@Injectable()
export class ServicingService {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly reads: BookingReads,
  ) {}

  /** The airline's offers to move the trip to other dates (remembered by the booking for `changeTrip`). */
  async changeOffers(
    id: string,
    caller: Principal,
    request: ChangeOffersRequest,
    key?: string,
  ): Promise<ChangeOffersAnswer> {
    try {
      return await this.read(id, caller, changeOffersUpdate, request, updateIdOf('changeOffers', key));
    } catch (error) {
      // No flights to sell on those dates is an answer, not an error.
      if (error instanceof ApiError && error.code === 'NO_OFFERS') return { offers: [] };
      throw error;
    }
  }

  /** The services on sale for the order. */
  orderServices(id: string, caller: Principal, key?: string): Promise<OrderServicesAnswer> {
    return this.read(id, caller, orderServicesUpdate, {}, updateIdOf('orderServices', key));
  }

  /**
   * The seat map: while `AWAITING_SEAT_SELECTION` the one the booking read (its `seatMap` query,
   * no airline call); once the order exists, the order's (the `orderSeatMap` update).
   */
  async seatMap(id: string, caller: Principal): Promise<SeatMapView> {
    const facts = await this.reads.facts(id, caller);
    if (facts.state.status === 'AWAITING_SEAT_SELECTION') return this.reads.seatMap(id, caller);
    if (facts.state.order === undefined || facts.description.status.name !== 'RUNNING')
      throw notAwaitingSeats(facts.state.status);
    return seatMapView(await this.call(id, facts, orderSeatMapUpdate, {}, undefined));
  }

  /** What cancelling (all, or the travellers named) would refund now; nothing changes. */
  cancelQuote(id: string, caller: Principal, body: CancelQuoteBody, key?: string): Promise<RefundQuoteAnswer> {
    return this.read(id, caller, cancelQuoteUpdate, body, updateIdOf('cancelQuote', key));
  }

  /** Pays a `HELD` booking. */
  pay(id: string, caller: Principal, request: PayRequest, key?: string): Promise<ServicingOutcome> {
    return this.write(id, caller, payBookingUpdate, request, updateIdOf('payBooking', key));
  }

  /** Takes a change offer. */
  changeTrip(id: string, caller: Principal, request: ChangeTripRequest, key?: string): Promise<ServicingOutcome> {
    return this.write(id, caller, changeTripUpdate, request, updateIdOf('changeTrip', key));
  }

  /** The agency's answer to a change the airline made (`ACTION_REQUIRED`). */
  answerAirlineChange(
    id: string,
    caller: Principal,
    answer: AirlineChangeAnswer,
    key?: string,
  ): Promise<ServicingOutcome> {
    return this.write(id, caller, answerAirlineChangeUpdate, answer, updateIdOf('answerAirlineChange', key));
  }

  /** Adds bags and seats to the order. */
  addServices(id: string, caller: Principal, request: AddServicesRequest, key?: string): Promise<ServicingOutcome> {
    return this.write(id, caller, addServicesUpdate, request, updateIdOf('addServices', key));
  }

  /** Removes the travellers named; done, the answer states the refund. */
  async removePassengers(
    id: string,
    caller: Principal,
    body: CancelBody & { passengers: number[] },
    key?: string,
  ): Promise<ServicingOutcome> {
    const outcome = await this.write(id, caller, removePassengersUpdate, body, updateIdOf('removePassengers', key));
    const refund = outcome.done ? refundOfRemoval(outcome.view) : undefined;
    return refund !== undefined ? { ...outcome, view: { ...outcome.view, refund } } : outcome;
  }

  /** A read: waits for the answer. */
  private async read<Ret, Arg>(
    id: string,
    caller: Principal,
    update: UpdateDefinition<Ret, [Arg]>,
    arg: Arg,
    updateId: string | undefined,
  ): Promise<Ret> {
    return this.call(id, await this.open(id, caller), update, arg, updateId);
  }

  /** Sends a read and waits for its answer (a worker must accept it within the query timeout). */
  private async call<Ret, Arg>(
    id: string,
    facts: BookingFacts,
    update: UpdateDefinition<Ret, [Arg]>,
    arg: Arg,
    updateId: string | undefined,
  ): Promise<Ret> {
    const options = {
      acceptBy: Date.now() + this.config.queryTimeoutMs,
      ...(updateId !== undefined ? { updateId } : {}),
    };
    try {
      return await callUpdate(this.client, this.reads.handle(id), update, arg, options);
    } catch (error) {
      throw error instanceof ApiError ? error : updateFailure(error, facts.state.status);
    }
  }

  /** An action that changes the booking: its state within the query timeout, else the booking as it is. */
  private async write<Arg>(
    id: string,
    caller: Principal,
    update: UpdateDefinition<BookingState, [Arg]>,
    arg: Arg,
    updateId: string | undefined,
  ): Promise<ServicingOutcome> {
    const facts = await this.open(id, caller);
    const deadline = Date.now() + this.config.queryTimeoutMs;
    let outcome: UpdateOutcome<BookingState>;
    try {
      outcome = await sendUpdate(this.client, this.reads.handle(id), update, arg, {
        acceptBy: deadline,
        resultBy: deadline,
        ...(updateId !== undefined ? { updateId } : {}),
      });
    } catch (error) {
      throw error instanceof ApiError ? error : updateFailure(error, facts.state.status);
    }
    if (outcome.done) return { done: true, view: viewOf(id, outcome.value) };
    return { done: false, view: await this.reads.get(id, caller) };
  }

  /** The booking's facts, when its workflow still runs (a closed one takes no servicing request). */
  private async open(id: string, caller: Principal): Promise<BookingFacts> {
    const facts = await this.reads.facts(id, caller);
    if (facts.description.status.name !== 'RUNNING') {
      throw new ApiError(
        'NOT_SERVICEABLE',
        `The booking has ended (${facts.state.status}): it takes no servicing requests`,
        {
          details: { bookingStatus: facts.state.status },
        },
      );
    }
    return facts;
  }
}

/** The refund of the travellers just removed: the last change's (a negative difference), as a positive amount. */
function refundOfRemoval(state: BookingState): { value: string; currency: string } | undefined {
  const last = state.changes?.[state.changes.length - 1];
  if (last?.kind !== 'passengers' || last.difference === undefined) return undefined;
  const { value, currency } = last.difference;
  return { value: subtract('0', value, currencyScale(currency)), currency };
}

/**
 * The schedule-change simulator (`POST /_sim/schedule-changes`, docs/airline-service.md,
 * "Schedule changes"): a flight on a date is retimed or cancelled (for good: it is no longer
 * offered or sold), and every open order on it gets a new version at once: retimed segments, or
 * its travellers moved to the alternative (the one named, else the next with seats). Each waits
 * for the seller's answer until `actionMs` from now (`Status@ScheduleChangeInd`), and each
 * version is queued for the agency as an OrderChangeNotif. All in one transaction.
 */
import { z } from 'zod';
import type { AirlineClock } from '../airline.ports';
import type { LoadedOrder, OrderBook } from '../servicing/order-book';
import type { OrderAirlineChange, OrderContent } from '../servicing/servicing.types';
import type { AirlineStore } from '../store/airline.store';
import type { World } from '../world/world';
import { isIsoDate, shiftTime } from '../world/world.dates';
import type { FlightChange, WorldFlight } from '../world/world.types';
import type { OrderNotices } from './notification-outbox';
import { applyPlan } from '../servicing/order-content';
import { type DatedFlight, protection } from './protection';

const FLIGHT = /^[A-Z0-9]{2}\d{1,4}$/;
const datedFlight = z
  .object({
    flight: z.string().regex(FLIGHT, 'must be a designator and flight number such as ZZ1234'),
    date: z.string().refine(isIsoDate, 'must be a date YYYY-MM-DD'),
  })
  .strict();

/** The simulator's body: `{ flight, date, shiftMinutes }` or `{ flight, date, cancelled: true, alternative? }`. */
export const scheduleChangeSchema = datedFlight
  .extend({
    shiftMinutes: z
      .number()
      .int()
      .min(-1440)
      .max(2880)
      .refine((n) => n !== 0, 'must not be 0')
      .optional(),
    cancelled: z.literal(true).optional(),
    alternative: datedFlight.optional(),
  })
  .strict()
  .superRefine((rq, ctx) => {
    if ((rq.shiftMinutes === undefined) === (rq.cancelled === undefined))
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [rq.shiftMinutes === undefined ? 'shiftMinutes' : 'cancelled'],
        message: 'give either shiftMinutes (a retime) or cancelled: true',
      });
    if (rq.alternative !== undefined && rq.cancelled === undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['alternative'], message: 'goes only with cancelled: true' });
    if (rq.alternative?.flight === rq.flight && rq.alternative.date === rq.date)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['alternative'], message: 'is the cancelled flight itself' });
  });

export type ScheduleChangeRequest = z.infer<typeof scheduleChangeSchema>;

/** A request the airline cannot apply (answered 400 naming `field`). */
export class ScheduleChangeError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

/** The orders a schedule change changed. */
export interface ScheduleChangeResult {
  orders: { orderId: string; bookingReference: string }[];
}

export class ScheduleChangeService {
  constructor(
    private readonly world: World,
    private readonly store: AirlineStore,
    private readonly book: OrderBook,
    private readonly clock: AirlineClock,
    private readonly notices: OrderNotices,
    private readonly options: { actionMs: number; onChanged?: (actionBy: string) => void },
  ) {}

  /** Applies `rq` (see the file's comment); the orders it changed. Throws {@link ScheduleChangeError} for an unknown flight. */
  change(rq: ScheduleChangeRequest): ScheduleChangeResult {
    const number = this.flightNumber(rq.flight, 'flight');
    if (rq.alternative !== undefined) this.flightNumber(rq.alternative.flight, 'alternative.flight');
    const now = this.clock.now();
    const actionBy = new Date(now.getTime() + this.options.actionMs).toISOString();
    const schedule = this.store.schedule;
    const request: FlightChange = rq.cancelled
      ? { kind: 'cancelled' }
      : { kind: 'retime', shiftMinutes: rq.shiftMinutes! };
    try {
      const changed = this.store.transaction(() => {
        const change = schedule.saveInTransaction(number, rq.date, request, now.toISOString());
        return this.ordersOn(rq.flight, rq.date).map((loaded) =>
          this.changeOrder(loaded, { rq, change, number, now, actionBy }),
        );
      });
      if (changed.length > 0) this.options.onChanged?.(actionBy);
      return { orders: changed };
    } catch (error) {
      schedule.reload(number, rq.date);
      throw error;
    }
  }

  /** The number of `flight` when it is one of this airline's flights (else 400 naming `field`). */
  private flightNumber(flight: string, field: string): string {
    const designator = flight.slice(0, 2);
    const number = flight.slice(2);
    if (designator !== this.world.airlineCode)
      throw new ScheduleChangeError(field, `${designator} is not this airline (${this.world.airlineCode})`);
    if (!this.world.data.flights.some((f) => f.number === number))
      throw new ScheduleChangeError(field, `${flight} is not a flight of this airline`);
    return number;
  }

  /** The open orders with a segment on `flight` scheduled on `date`, oldest first. */
  private ordersOn(flight: string, date: string): LoadedOrder[] {
    const key = `${flight}/${date}`;
    return this.store.orders.openOrderIds().flatMap((orderId) => {
      const order = this.store.orders.getOrder(orderId)!;
      const content = this.book.contentOf(order);
      const on = content.journeys.some((j) =>
        this.world.journeyOf(j.flights, j.date).segments.some((s) => s.inventoryKey === key),
      );
      return on ? [{ order, content }] : [];
    });
  }

  /** One order's new version (retimed, or moved off the cancelled flight), queued for its agency. */
  private changeOrder(loaded: LoadedOrder, c: OrderChangeContext): { orderId: string; bookingReference: string } {
    const { order } = loaded;
    const { content, moves, change } = c.change.kind === 'retime' ? this.retimed(loaded, c) : this.moved(loaded, c);
    const next: OrderContent = { ...content, airlineChange: change };
    const view = this.book.reviseInTransaction(order, { content: next, status: order.status, moves }, c.now);
    this.notices.queueInTransaction({ view, agencyId: order.agencyId, action: 'Update', reason: change.reason });
    return { orderId: order.orderId, bookingReference: order.bookingReference };
  }

  private retimed(loaded: LoadedOrder, c: OrderChangeContext): OrderChangeParts {
    const shift = c.change.kind === 'retime' ? c.change.shiftMinutes : 0;
    const scheduled = this.world.data.flights.find((f) => f.number === c.number)!;
    return {
      content: loaded.content,
      moves: NO_MOVES,
      change: {
        ...this.base(c),
        kind: 'retime',
        shiftMinutes: shift,
        reason: retimeReason(c.rq.flight, c.rq.date, scheduled, shift),
      },
    };
  }

  private moved(loaded: LoadedOrder, c: OrderChangeContext): OrderChangeParts {
    const key = `${c.rq.flight}/${c.rq.date}`;
    const replaced = loaded.content.journeys.find((j) =>
      this.world.journeyOf(j.flights, j.date).segments.some((s) => s.inventoryKey === key),
    )!;
    const cancelled = { flight: c.rq.flight, date: c.rq.date };
    const wanted = c.rq.alternative;
    const sold = (k: string, rbd: string) => this.store.inventory.sold(k, rbd);
    const move = protection(this.world, loaded, replaced, {
      cancelled,
      ...(wanted ? { wanted } : {}),
      sold,
      now: c.now,
    });
    const what = `${c.rq.flight} on ${c.rq.date} is cancelled`;
    if (move === undefined)
      return {
        content: loaded.content,
        moves: NO_MOVES,
        change: {
          ...this.base(c),
          kind: 'cancelled',
          reason: `${what}; no other flight has seats: rebook or cancel with a full refund`,
        },
      };
    const { plan, alternative } = move;
    return {
      content: applyPlan(loaded.content, plan),
      moves: { release: plan.release, sell: plan.sell, releaseSeats: plan.releaseSeats, sellSeats: [], seatOwner: '' },
      change: {
        ...this.base(c),
        kind: 'cancelled',
        alternative,
        reason: `${what}; the travellers are moved to ${alternative.flight} on ${alternative.date}`,
      },
    };
  }

  private base(c: OrderChangeContext): Pick<OrderAirlineChange, 'flight' | 'date' | 'changedAt' | 'actionBy'> {
    return { flight: c.rq.flight, date: c.rq.date, changedAt: c.now.toISOString(), actionBy: c.actionBy };
  }
}

/** What one order's change is worked out with. */
interface OrderChangeContext {
  rq: ScheduleChangeRequest;
  /** The flight's change as it now stands (a retime added to earlier ones). */
  change: FlightChange;
  number: string;
  now: Date;
  actionBy: string;
}

interface OrderChangeParts {
  content: OrderContent;
  moves: {
    release: OrderContent['segments'];
    sell: OrderContent['segments'];
    releaseSeats: OrderContent['seats'];
    sellSeats: [];
    seatOwner: string;
  };
  change: OrderAirlineChange;
}

const NO_MOVES: OrderChangeParts['moves'] = { release: [], sell: [], releaseSeats: [], sellSeats: [], seatOwner: '' };

/** `ZZ1234 on 2026-12-01 departs 11:25 instead of 10:40 (+45 min)`. */
function retimeReason(flight: string, date: string, scheduled: WorldFlight, shift: number): string {
  const now = shiftTime(scheduled.departure, shift);
  const day = now.days === 0 ? '' : ` (${now.days > 0 ? '+' : ''}${now.days} day)`;
  return `${flight} on ${date} departs ${now.time}${day} instead of ${scheduled.departure} (${shift > 0 ? '+' : ''}${shift} min)`;
}

export type { DatedFlight };

/**
 * Orders: creation from the latest pricing response (seats sold atomically),
 * retrieval by OrderID and by shopping response id. An order is visible only
 * to the agency that created it; anyone else gets the same 913 as for a
 * missing order.
 */
import { createHash } from 'node:crypto';
import type { OrderCreateRq, OrderViewRs } from '../../ndc/ndc.model';
import { AirlineError } from '../airline.errors';
import type { AirlineStore, StoredOrder } from '../store/airline.store';
import type { OrdersLookup } from '../http/ndc-pipeline';

type OrderView = Extract<OrderViewRs, { kind: 'success' }>;

/** Text of the 913 error element. */
export const ORDER_NOT_FOUND_TEXT = 'Order not found';

export class OrdersService {
  constructor(private readonly store: AirlineStore) {}

  create(_rq: OrderCreateRq): OrderViewRs {
    throw new AirlineError('SYSTEM_ERROR', 'order creation is not available');
  }

  /** The order `orderId` if `agencyId` created it; else AirlineError ORDER_NOT_FOUND (913). */
  retrieve(orderId: string, agencyId: string): OrderViewRs {
    const order = this.store.getOrder(orderId);
    if (!order || order.agencyId !== agencyId) throw new AirlineError('ORDER_NOT_FOUND', ORDER_NOT_FOUND_TEXT);
    return order.view;
  }

  /**
   * Orders of `agencyId` created from offers of shopping response
   * `shoppingResponseId`, as one OrderViewRS, with a weak ETag over their content.
   */
  byShoppingResponse(shoppingResponseId: string, agencyId: string): OrdersLookup {
    const orders = this.store.ordersByShoppingResponse(shoppingResponseId).filter((o) => o.agencyId === agencyId);
    if (orders.length === 0) throw new AirlineError('ORDER_NOT_FOUND', ORDER_NOT_FOUND_TEXT);
    const rs = mergeViews(orders);
    const hash = createHash('sha256').update(JSON.stringify(rs)).digest('base64url').slice(0, 27);
    return { rs, etag: `W/"${hash}"` };
  }
}

/** One OrderViewRS holding several orders; data list entries are de-duplicated by id (first wins). */
export function mergeViews(orders: StoredOrder[]): OrderView {
  if (orders.length === 1) return orders[0].view;
  const [first, ...rest] = orders.map((o) => o.view);
  const merged: OrderView = structuredClone(first);
  for (const v of rest) {
    merged.orders.push(...v.orders);
    const dl = merged.dataLists as Record<string, unknown[] | undefined>;
    for (const [list, entries] of Object.entries(v.dataLists as Record<string, unknown[] | undefined>)) {
      if (!entries) continue;
      const target = (dl[list] ??= []);
      const ids = new Set(target.map(idOf));
      for (const e of entries) if (!ids.has(idOf(e))) target.push(e);
    }
  }
  return merged;
}

function idOf(entry: unknown): string {
  const e = entry as Record<string, unknown>;
  for (const k of Object.keys(e)) {
    if (/(Id|Key)$/.test(k) && typeof e[k] === 'string') return `${k}=${String(e[k])}`;
  }
  return JSON.stringify(e);
}

/**
 * The OrderChangeNotif the airline pushes for a version of an order it changed itself
 * (docs/airline-service.md, "Schedule changes"): the order as it now is (its OrderViewRS model),
 * its version as the root's `SequenceNmbr` (what the receiver de-duplicates by), the Amendment
 * (`Update` for a retime or a move, `Cancel` for an order the airline cancelled) with the reason,
 * encoded in the airline's extension namespace and wrapped in the push binding. Pure.
 */
import { createHash } from 'node:crypto';
import { encodeOrderChangeNotif, wrapInBinding, type NdcBinding } from '../../ndc';
import type { DataLists, FlightSegment } from '../../ndc/ndc.model';
import type { OrderChangeNotif } from '../../ndc/servicing.model';
import type { StoredOrderView } from '../store/orders.store';

/** `Amendment/ActionType@Context` of every amendment the airline sends. */
export const SCHEDULE_CHANGE_CONTEXT = 'ScheduleChange';

/** What the airline did to the order: `Update` (retimed, moved, its wait ended), `Cancel` (cancelled). */
export type AmendmentAction = 'Update' | 'Cancel';

/** One notification: which order version, for whom, what happened. */
export interface OrderNotice {
  /** The order's view after the change (its `sequenceNumber` is the version). */
  view: StoredOrderView;
  agencyId: string;
  action: AmendmentAction;
  reason: string;
  /** When it is sent (ISO 8601): the root's TimeStamp. */
  at: string;
}

/** How the airline writes its messages. */
export interface NotifWriting {
  airlineCode: string;
  extensionNamespace: string;
  exchangeNamespace: string;
  binding: NdcBinding;
}

/** The OrderChangeNotif model of `notice`. */
export function orderChangeNotif(notice: OrderNotice, airlineCode: string): OrderChangeNotif {
  const { view } = notice;
  const order = view.orders[0];
  if (order === undefined || view.sequenceNumber === undefined)
    throw new Error('an OrderChangeNotif needs the view of one order with its version');
  return {
    target: view.target,
    version: view.version,
    timeStamp: notice.at,
    transactionIdentifier: notificationId(order.orderId, view.sequenceNumber),
    sequenceNumber: view.sequenceNumber,
    party: { airlineId: airlineCode, agencyId: notice.agencyId },
    order,
    amendments: [{ actionType: notice.action, context: SCHEDULE_CHANGE_CONTEXT, remarks: [notice.reason] }],
    dataLists: withoutMetadataRefs(view.dataLists),
  };
}

/**
 * The notification's TransactionIdentifier (at most 32 characters in 17.2): `NTF` and a digest of
 * the order and version, the same however often it is sent.
 */
export function notificationId(orderId: string, version: number): string {
  return `NTF${createHash('sha256').update(`${orderId}/${version}`).digest('hex').slice(0, 29)}`;
}

/** The message of `notice` as pushed: encoded, then wrapped in `writing.binding` (the airline is the NDC Exchange sender). */
export function notificationBody(notice: OrderNotice, writing: NotifWriting): string {
  const xml = encodeOrderChangeNotif(orderChangeNotif(notice, writing.airlineCode), {
    extensionNamespace: writing.extensionNamespace,
  });
  return wrapInBinding(xml, writing.binding, {
    namespace: writing.exchangeNamespace,
    sellerId: writing.airlineCode,
    recipient: notice.agencyId,
  });
}

/** The lists without the segments' references to Metadata (an OrderChangeNotif has no Metadata for them to name). */
function withoutMetadataRefs(lists: DataLists): DataLists {
  if (lists.flightSegments === undefined) return lists;
  const segment = (s: FlightSegment): FlightSegment => {
    const { refs: _from, ...departure } = s.departure;
    const { refs: _to, ...arrival } = s.arrival;
    return { ...s, departure, arrival };
  };
  return { ...lists, flightSegments: lists.flightSegments.map(segment) };
}

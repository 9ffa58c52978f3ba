/**
 * Pushing OrderChangeNotif to agencies (docs/airline-service.md, "Schedule changes"): each order
 * version the airline made itself is queued, in the transaction that made it, in the outbox
 * (`order_notifications`), then POSTed to the agency's address (AIRLINE_NOTIFY_URL with its
 * AgencyID) with the airline's HTTP Basic credential, in its binding, until a 2xx acknowledges it:
 * retried after AIRLINE_NOTIFY_RETRY_MS, doubled each time up to 5 minutes. An order's versions
 * go in order; a restart sends what is still pending. The receiver drops a version it already has
 * (the root's `SequenceNmbr`), so a notification sent twice (acknowledged, but the answer lost)
 * counts once. The credential is never logged.
 */
import { bindingHeaders } from '../../ndc';
import type { NotifyConfig } from '../airline.config';
import type { AirlineClock } from '../airline.ports';
import type { AirlineStore, OutboxNotification } from '../store/airline.store';
import { notificationBody, type NotifWriting, type OrderNotice } from './order-change-notif';

/** Longest wait between two attempts of one notification. */
export const MAX_RETRY_MS = 300_000;
/** How long one attempt may take before it counts as failed. */
export const NOTIFY_TIMEOUT_MS = 10_000;
/** Content-Type of a plain push. */
const PLAIN_TYPE = 'application/xml; charset=utf-8';

/** Where the airline's own changes of orders go: queued in the caller's transaction. */
export interface OrderNotices {
  queueInTransaction(notice: Omit<OrderNotice, 'at'>): void;
}

/** What the outbox logs (a Nest Logger fits). */
export interface OutboxLog {
  log(message: string): void;
  warn(message: string): void;
}

export class NotificationOutbox implements OrderNotices {
  constructor(
    private readonly store: AirlineStore,
    private readonly clock: AirlineClock,
    private readonly writing: Omit<NotifWriting, 'binding'>,
    private readonly config: NotifyConfig | undefined,
    private readonly logger: OutboxLog,
    private readonly send: typeof fetch = fetch,
  ) {}

  /** Queues `notice` for its agency (nothing when the airline pushes to nobody: AIRLINE_NOTIFY_URL unset). */
  queueInTransaction(notice: Omit<OrderNotice, 'at'>): void {
    if (this.config === undefined) return;
    const at = this.clock.now().toISOString();
    const body = notificationBody({ ...notice, at }, { ...this.writing, binding: this.config.binding });
    const order = notice.view.orders[0]!;
    this.store.notifications.enqueueInTransaction(
      { orderId: order.orderId, version: notice.view.sequenceNumber!, agencyId: notice.agencyId, body },
      at,
    );
  }

  /** Sends every notification due now (each order's oldest pending first), until none is left due. */
  async sendDue(): Promise<void> {
    if (this.config === undefined) return;
    for (;;) {
      const due = this.store.notifications.due(this.clock.now().toISOString(), 20);
      if (due.length === 0) return;
      for (const n of due) await this.attempt(n, this.config);
    }
  }

  /** When the next pending notification is due. */
  nextDue(): Date | undefined {
    if (this.config === undefined) return undefined;
    const due = this.store.notifications.nextDue();
    return due === undefined ? undefined : new Date(due);
  }

  private async attempt(n: OutboxNotification, config: NotifyConfig): Promise<void> {
    const url = config.url.replaceAll('{agency}', encodeURIComponent(n.agencyId));
    const what = `OrderChangeNotif of order ${n.orderId} version ${n.version} to ${redacted(url)}`;
    let failure: string;
    try {
      const res = await this.send(url, {
        method: 'POST',
        headers: {
          ...bindingHeaders(config.binding, 'OrderChangeNotif', PLAIN_TYPE),
          Authorization: `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`,
        },
        body: n.body,
        signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) {
        this.store.notifications.delivered(n.id, this.clock.now().toISOString());
        this.logger.log(`${what}: acknowledged (${res.status})`);
        return;
      }
      failure = `HTTP ${res.status}`;
    } catch (error) {
      failure = (error as Error).message;
    }
    const wait = Math.min(config.retryMs * 2 ** n.attempts, MAX_RETRY_MS);
    this.store.notifications.failed(n.id, failure, new Date(this.clock.now().getTime() + wait).toISOString());
    this.logger.warn(`${what}: ${failure}; attempt ${n.attempts + 1}, next in ${wait} ms`);
  }
}

/** `url` without any user information it carries (what may be logged). */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

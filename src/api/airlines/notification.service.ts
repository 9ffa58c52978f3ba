/**
 * Airline change notifications (docs/api.md, "Airline notifications"): an OrderChangeNotif an
 * airline pushes is read in the airline's binding and namespaces, its order summarised, and handed
 * to the booking that holds that order (found by airline and booking reference) as the
 * `airlineChange` signal: durable once the server has it, whether a worker runs or not. The
 * booking compares, de-duplicates by the order version and settles it (workflows/booking.airline-changes.ts).
 */
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { BOOKING_WORKFLOW } from '../../booking/booking.model';
import { summaryOfOrder } from '../../booking/order-from-ndc';
import type { AirlineChangeNotice } from '../../booking/servicing.model';
import type { BasicCredentials } from '../../common/basic-credentials';
import type { AirlineProfile } from '../../ndc-client/airline-profile';
import { readOrderChangeNotif } from '../../ndc-client/order-change-notification';
import type { OrderChangeNotif } from '../../ndc';
import { airlineChangeSignal, airlineNoticeSeenQuery } from '../../../workflows/definitions';
import { API_CONFIG, API_METRICS, TEMPORAL_CLIENT } from '../common/api.tokens';
import type { ApiConfig } from '../config/api.config';
import type { ApiMetrics } from '../observability/api.metrics';

/** Largest notification body read, bytes (an order of nine travellers with its lists is far below). */
export const NOTIFICATION_MAX_BYTES = 1024 * 1024;

/** What became of a notification that was read: handed to its booking, a repeat, or for no booking of ours. */
export type NotificationOutcome = 'delivered' | 'duplicate' | 'unknown-order';

/** An airline that pushes notifications, with the credential it must present. */
export interface PushingAirline {
  profile: AirlineProfile;
  credentials: BasicCredentials;
}

@Injectable()
export class NotificationService {
  private readonly logger = new Logger('AirlineNotifications');

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Optional() @Inject(API_METRICS) private readonly metrics?: ApiMetrics,
  ) {}

  /** The airline `code` when it pushes notifications to this API; undefined otherwise. */
  pushingAirline(code: string): PushingAirline | undefined {
    const credentials = this.config.notificationCredentials.get(code);
    const profile = this.config.airlines.find((airline) => airline.code === code);
    return credentials !== undefined && profile !== undefined ? { profile, credentials } : undefined;
  }

  /**
   * Reads `body` (throws the codec's errors for one that is not a valid OrderChangeNotif) and
   * hands it to its booking. Temporal unreachable: throws (the airline retries).
   */
  async receive(profile: AirlineProfile, body: Buffer): Promise<NotificationOutcome> {
    const { notif } = readOrderChangeNotif(body, {
      maxBytes: NOTIFICATION_MAX_BYTES,
      ...(profile.client.extensionNamespace !== undefined
        ? { extensionNamespace: profile.client.extensionNamespace }
        : {}),
      ...(profile.client.documentNamespace !== undefined
        ? { documentNamespace: profile.client.documentNamespace }
        : {}),
    });
    const notice = noticeOf(notif);
    const outcome = await this.deliver(profile.code, notice);
    this.logger.log(
      `OrderChangeNotif from ${profile.code} for order ${notice.order.orderId} version ${notice.sequence ?? '-'}: ${outcome}`,
    );
    return outcome;
  }

  /** Counts a notification's end (`outcome` or why it was refused) in `ndc_saga_airline_notifications_total`. */
  count(airline: string, outcome: NotificationOutcome | 'refused' | 'failed'): void {
    this.metrics?.airlineNotifications.inc({ airline, outcome });
  }

  private async deliver(airline: string, notice: AirlineChangeNotice): Promise<NotificationOutcome> {
    const handle = await this.bookingOf(airline, notice.order.bookingReference);
    if (handle === undefined) return 'unknown-order';
    if (notice.sequence !== undefined && (await this.seen(handle, notice.sequence))) return 'duplicate';
    await handle.signal(airlineChangeSignal, notice);
    return 'delivered';
  }

  /** The running booking of `airline` with `bookingReference` (its latest run), if any. */
  private async bookingOf(airline: string, bookingReference: string): Promise<WorkflowHandle | undefined> {
    const query =
      `WorkflowType = '${BOOKING_WORKFLOW}' AND ExecutionStatus = 'Running' AND ` +
      `Airline = '${airline}' AND BookingReference = '${bookingReference}'`;
    for await (const execution of this.client.workflow.list({ query, pageSize: 1 }))
      return this.client.workflow.getHandle(execution.workflowId);
    return undefined;
  }

  /** Whether the booking already has that order version; a booking that cannot answer now is sent it (it drops repeats). */
  private async seen(handle: WorkflowHandle, sequence: number): Promise<boolean> {
    try {
      return await handle.query(airlineNoticeSeenQuery, sequence);
    } catch {
      return false;
    }
  }
}

/** A notification the codec read but this API cannot take (answered 400 naming `path`). */
export class InvalidNotificationError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

/** Booking references as airlines write them (what may go into a visibility query). */
const BOOKING_REFERENCE = /^[A-Za-z0-9]{1,20}$/;

/** The booking's notice of a notification: the order as it now is, its version, the airline's reason. */
function noticeOf(notif: OrderChangeNotif): AirlineChangeNotice {
  const order = summaryOfOrder(notif.order, notif.dataLists, notif.order.totalOrderPrice?.currency);
  if (!BOOKING_REFERENCE.test(order.bookingReference))
    throw new InvalidNotificationError(
      '/OrderChangeNotif/Query/Order/BookingReferences/BookingReference/ID',
      'must be 1 to 20 letters and digits',
    );
  const reason = notif.amendments
    .flatMap((amendment) => amendment.remarks)
    .join('; ')
    .slice(0, 500);
  return {
    detectedBy: 'notification',
    order,
    ...(notif.sequenceNumber !== undefined ? { sequence: notif.sequenceNumber } : {}),
    ...(reason !== '' ? { reason } : {}),
    receivedAt: new Date().toISOString(),
  };
}

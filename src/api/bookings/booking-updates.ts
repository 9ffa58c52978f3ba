/**
 * Workflow updates as the booking routes send them (docs/api.md, "After the booking"): started and
 * waited for within deadlines, so an update that waits long (3-D Secure, a price approval) never
 * holds the HTTP request, and no worker taking it is an answer rather than a hung request; and
 * their failures turned into the API's errors, in one place.
 */
import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  WorkflowUpdateStage,
  type Client,
  type WorkflowHandle,
  type WorkflowUpdateHandle,
} from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { failureTypeOf } from '../../booking/booking.failures';
import type { BookingStatus } from '../../booking/booking.status';
import { ServicingRefusal } from '../../booking/servicing.model';
import { ApiError, type ApiErrorCode } from '../common/api-error';
import { scrubDigits } from '../common/api-exception.filter';
import { IDEMPOTENCY_KEY_RE } from '../common/intake';
import type { BookingWorkflow } from '../common/workflow-contract';

/** An update's outcome: its result, or `done: false` when it was accepted but still runs at the deadline. */
export type UpdateOutcome<T> = { done: true; value: T } | { done: false };

export interface SendOptions {
  /** The update id (a retried request with the same id is the same update). Default: a fresh one. */
  updateId?: string;
  /** Epoch ms by which a worker must have accepted it (its validator ran); else `TEMPORAL_UNAVAILABLE`. */
  acceptBy: number;
}

/**
 * Starts `update` on the booking, waiting for its validator, and waits for its result. Throws the
 * client's errors (a refused or failed update, a closed workflow) for {@link updateFailure}.
 */
export async function callUpdate<Ret, Arg>(
  client: Client,
  handle: WorkflowHandle<BookingWorkflow>,
  update: UpdateDefinition<Ret, [Arg]>,
  arg: Arg,
  options: SendOptions,
): Promise<Ret> {
  return (await startAccepted(client, handle, update, arg, options)).result();
}

/** As {@link callUpdate}, but waits for the result only until `resultBy` (epoch ms): then `{ done: false }`. */
export async function sendUpdate<Ret, Arg>(
  client: Client,
  handle: WorkflowHandle<BookingWorkflow>,
  update: UpdateDefinition<Ret, [Arg]>,
  arg: Arg,
  options: SendOptions & { resultBy: number },
): Promise<UpdateOutcome<Ret>> {
  const started = await startAccepted(client, handle, update, arg, options);
  try {
    return { done: true, value: await client.withDeadline(options.resultBy, () => started.result()) };
  } catch (error) {
    if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return { done: false };
    throw error;
  }
}

/** The update started and accepted by a worker by `acceptBy`; else `TEMPORAL_UNAVAILABLE`. */
function startAccepted<Ret, Arg>(
  client: Client,
  handle: WorkflowHandle<BookingWorkflow>,
  update: UpdateDefinition<Ret, [Arg]>,
  arg: Arg,
  options: SendOptions,
): Promise<WorkflowUpdateHandle<Ret>> {
  return client
    .withDeadline(options.acceptBy, () =>
      handle.startUpdate(update, {
        args: [arg],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
        ...(options.updateId !== undefined ? { updateId: options.updateId } : {}),
      }),
    )
    .catch((error: unknown) => {
      throw error instanceof WorkflowUpdateRPCTimeoutOrCancelledError ? notTaken(error) : error;
    });
}

/**
 * The update id of a request: `<action>:<Idempotency-Key>`, so a retried request is the same
 * update and one key on two routes two updates; no key: a fresh id (undefined).
 */
export function updateIdOf(action: string, keyHeader: string | undefined): string | undefined {
  if (keyHeader === undefined || keyHeader === '') return undefined;
  if (!IDEMPOTENCY_KEY_RE.test(keyHeader)) {
    throw new ApiError('INVALID_REQUEST', 'Invalid Idempotency-Key header', {
      fields: [{ path: 'Idempotency-Key', message: 'must be 1 to 100 characters of A-Z a-z 0-9 _ . : -' }],
    });
  }
  return `${action}:${keyHeader}`;
}

/** No worker accepted the update in time: the request may be sent again (with its key: the same update). */
function notTaken(cause: unknown): ApiError {
  return new ApiError(
    'TEMPORAL_UNAVAILABLE',
    'No worker took the request in time; retry later (with the same Idempotency-Key: the same request)',
    {
      headers: { 'Retry-After': '5' },
      cause,
    },
  );
}

const REFUSALS: readonly string[] = Object.values(ServicingRefusal);

/**
 * The API error of a failed servicing update: the booking's refusal (busy, not serviceable, an
 * unknown or expired offer, ...) or the action's failure type, with the workflow's message (digit
 * runs that could be card numbers masked). `INVALID_SERVICING_REQUEST` names the field its message
 * starts with (`passengers: ...`). A workflow that has closed (departed, cancelled, expired)
 * takes no request: `NOT_SERVICEABLE`. Anything else is rethrown.
 */
export function updateFailure(error: unknown, status: BookingStatus): ApiError {
  if (error instanceof WorkflowNotFoundError) {
    return new ApiError('NOT_SERVICEABLE', 'The booking has ended: it takes no servicing requests', {
      details: { bookingStatus: status },
      cause: error,
    });
  }
  if (!(error instanceof WorkflowUpdateFailedError)) throw error;
  const cause = error.cause as { type?: string | null; message?: string } | undefined;
  const type = cause?.type ?? undefined;
  const code: ApiErrorCode =
    type !== undefined && REFUSALS.includes(type) ? (type as ServicingRefusal) : failureTypeOf(type);
  const message = scrubDigits(cause?.message ?? error.message);
  if (code === ServicingRefusal.INVALID_SERVICING_REQUEST) {
    return new ApiError(code, message, { fields: [fieldOf(message)], cause: error });
  }
  return new ApiError(code, message, { details: { bookingStatus: status }, cause: error });
}

/**
 * The field a refusal names, from its message's `path: ` prefix (`passengers`, `payment.card`,
 * `bags, seats`; else the body), with the rest of the message.
 */
export function fieldOf(message: string): { path: string; message: string } {
  const named = /^([A-Za-z][\w.[\]]*(?:, [A-Za-z][\w.[\]]*)*): /.exec(message);
  return named === null ? { path: '(body)', message } : { path: named[1]!, message: message.slice(named[0].length) };
}

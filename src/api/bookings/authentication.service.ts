/**
 * 3-D Secure results for a booking in `AWAITING_AUTHENTICATION` (docs/api.md, "3-D Secure"): the
 * cardholder's browser back from the issuer, and an agency posting the result its own return
 * page received. Both become the workflow's `authenticationResult` update; the first result counts.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import type { AuthenticationReceipt, AuthenticationReturn } from '../../booking/booking.model';
import { authenticationResultUpdate } from '../../../workflows/definitions';
import { ApiError } from '../common/api-error';
import { TEMPORAL_CLIENT } from '../common/api.tokens';
import type { Principal } from '../common/principal';
import type { BookingWorkflow } from '../common/workflow-contract';
import { describeOrUndefined } from '../common/workflow-reads';
import { AuthenticationReturns } from './authentication-return';
import { bookingNotFound, BookingReads } from './booking.reads';

@Injectable()
export class AuthenticationService {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    private readonly reads: BookingReads,
    private readonly returns: AuthenticationReturns,
  ) {}

  /**
   * The cardholder's browser back from 3-D Secure (no credential: the booking's return token).
   * Records the result in the workflow (the first one counts) and answers where to send the
   * browser: the intent's `termUrl` or `failUrl`. A wrong token is answered like an unknown
   * booking. A return after the booking ended changes nothing and is sent where its outcome says.
   */
  async returnFromAuthentication(id: string, token: unknown, returned: AuthenticationReturn): Promise<string> {
    if (!this.returns.accepts(id, token)) throw bookingNotFound(id);
    const handle = this.reads.handle(id);
    try {
      return (await handle.executeUpdate(authenticationResultUpdate, { args: [returned] })).redirectUrl;
    } catch (error) {
      const description = await describeOrUndefined(handle);
      if (description === undefined) throw bookingNotFound(id, error);
      if (description.status.name === 'RUNNING') throw notAwaitingAuthentication(error);
      const approved = description.status.name === 'COMPLETED' && (await approvedAndOrdered(handle));
      const [intent] = await this.startArguments(handle);
      return approved ? intent.securePayment.termUrl : intent.securePayment.failUrl;
    }
  }

  /** An agency posts the 3-D Secure result its own return page received. */
  async postAuthentication(
    id: string,
    caller: Principal,
    returned: AuthenticationReturn,
  ): Promise<{ id: string } & Omit<AuthenticationReceipt, 'redirectUrl'>> {
    const { description } = await this.reads.facts(id, caller);
    if (description.status.name !== 'RUNNING') throw notAwaitingAuthentication();
    try {
      const { outcome, first } = await this.reads
        .handle(id)
        .executeUpdate(authenticationResultUpdate, { args: [returned] });
      return { id, outcome, first };
    } catch (error) {
      throw notAwaitingAuthentication(error);
    }
  }

  /** The arguments a closed booking was started with (its intent), from the first event of its history. */
  private async startArguments(handle: WorkflowHandle<BookingWorkflow>): Promise<Parameters<BookingWorkflow>> {
    const started = (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
    // The payloads are what `BookingService.create` started the workflow with.
    return (await decodeArrayFromPayloads(
      this.client.options.loadedDataConverter,
      started?.input?.payloads,
    )) as Parameters<BookingWorkflow>;
  }
}

/** True when the completed booking took an approved 3-D Secure result and placed its order. */
async function approvedAndOrdered(handle: WorkflowHandle<BookingWorkflow>): Promise<boolean> {
  const { state } = await handle.result();
  return state.authentication?.returned === 'approved' && state.order !== undefined;
}

/** The booking was not asked for 3-D Secure, or has ended (the update was refused: `error`). */
function notAwaitingAuthentication(error?: unknown): ApiError {
  const reason = (error as { cause?: { message?: string } } | undefined)?.cause?.message;
  return new ApiError(
    'NOT_AWAITING_AUTHENTICATION',
    `The booking is not waiting for a 3-D Secure result${reason !== undefined ? `: ${reason}` : ''}`,
    error !== undefined ? { cause: error } : {},
  );
}

/**
 * Whether each airline the worker serves takes its credentials (docs/operations.md, "Health"):
 * checked at start and again when the health is asked and the last check is a minute old, with
 * one authenticated read that changes nothing (the orders of a response id that has none: the
 * airline answers "no such order" once it has let the worker in). An airline that refuses the
 * credentials is logged as an error naming the airline and the variable of its password, and
 * shown in the worker's health, instead of surfacing only as failed bookings.
 */
import type { Logger } from 'pino';
import { NdcHttpError, type NdcHttpClient } from '../ndc-client';
import type { AirlineProfile } from '../ndc-client/airline-profile';

/** What the last check of one airline showed. */
export interface CredentialsCheck {
  status: 'accepted' | 'refused' | 'unreachable' | 'unchecked';
  checkedAt?: string;
  /** Why, when refused or unreachable (never the credential itself). */
  detail?: string;
}

/** How old a check may be before the health asks again. Default 60 s. */
export const CREDENTIALS_RECHECK_MS = 60_000;

/** The response id the check reads the orders of: no order has it. */
const CHECK_RESPONSE_ID = 'ndc-saga-credentials-check';

/** One airline's check: its client, what the last check showed, and the check itself. */
export class AirlineCredentials {
  private last: CredentialsCheck = { status: 'unchecked' };
  private running: Promise<CredentialsCheck> | undefined;

  constructor(
    private readonly profile: Pick<AirlineProfile, 'code' | 'client' | 'passwordEnv'>,
    private readonly client: Pick<NdcHttpClient, 'ordersByShoppingResponse'>,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last check (starting a new one, not waited for, when it is older than {@link CREDENTIALS_RECHECK_MS}). */
  current(): CredentialsCheck {
    const { checkedAt } = this.last;
    if (checkedAt === undefined || this.now() - Date.parse(checkedAt) >= CREDENTIALS_RECHECK_MS) void this.check();
    return this.last;
  }

  /** Checks now (one check at a time); logs a refusal as an error. */
  check(): Promise<CredentialsCheck> {
    this.running ??= this.probe().finally(() => (this.running = undefined));
    return this.running;
  }

  private async probe(): Promise<CredentialsCheck> {
    const checkedAt = new Date(this.now()).toISOString();
    try {
      await this.client.ordersByShoppingResponse(CHECK_RESPONSE_ID, CHECK_RESPONSE_ID);
      this.last = { status: 'accepted', checkedAt };
    } catch (error) {
      const refused = error instanceof NdcHttpError && (error.status === 401 || error.status === 403);
      this.last = { status: refused ? 'refused' : 'unreachable', checkedAt, detail: (error as Error).message };
      if (refused) this.logRefusal(error);
    }
    return this.last;
  }

  private logRefusal(error: NdcHttpError): void {
    const { code, client, passwordEnv } = this.profile;
    const password = passwordEnv !== undefined ? `the password in ${passwordEnv}` : 'its password';
    this.logger.error(
      { airline: code, httpStatus: error.status, username: client.username },
      `airline ${code} refuses the worker's credentials (user ${client.username}, ${password}): ` +
        `every booking there fails AIRLINE_CREDENTIALS_REJECTED until they are fixed`,
    );
  }
}

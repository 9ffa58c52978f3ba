/**
 * 3-D Secure holds in SQLite: an OrderCreate waiting for the cardholder, the issuer page's
 * decision, and how the hold ended.
 */
import type { CustomerInputRq, Money, OrderCreateRq } from '../../ndc/ndc.model';
import type { SoldSegment } from '../airline.ports';
import type { PendingChange } from '../servicing/servicing.types';
import { type AirlineDatabase, type Row, jsonBytes } from './airline.database';

/** State of a 3-D Secure hold: waiting for the cardholder, or how it ended. */
export type AuthenticationState = 'pending' | 'ordered' | 'declined' | 'expired';

/**
 * An OrderCreate (or an OrderChange with a payment) waiting for 3-D Secure: the request to order
 * (or the change to apply) once the cardholder is authenticated, the challenge it was answered
 * with, and the seats it holds.
 */
export interface StoredAuthentication {
  /** The airline's transaction reference (`SPM_TxnReference`), also the id in the ACS_URL. */
  spmRef: string;
  /** `OriginalTransactionID`: the OrderCreateRQ's TransactionIdentifier. */
  originalTransactionId: string;
  agencyId: string;
  /** What the hold is found by while pending: an OrderCreate's pricing response, `ORDER:<OrderID>` for an OrderChange. */
  pricingResponseId: string;
  createdAt: string;
  expiresAt: string;
  state: AuthenticationState;
  /** Set once `state` is `ordered` (for an OrderChange: the order changed). */
  orderId?: string;
  /** The cardholder's decision on the issuer page (`Y` or `N`), once made: it is final. */
  acsStatus?: 'Y' | 'N';
  /** `challenge`: the cardholder decides; `fail`: authentication always fails (test card 4000000000003063). */
  mode: 'challenge' | 'fail';
  /** Shown on the issuer page. */
  lastFour: string;
  amount: Money;
  /** The OrderCreateRQ to order from (token id, never a card number); absent for an OrderChange. */
  request?: OrderCreateRq;
  /** The OrderChangeRQ to apply, for a change's payment. */
  change?: PendingChange;
  /** The CustomerInputRQ it was answered with (repeated for an identical retry). */
  challenge: CustomerInputRq;
  segments: SoldSegment[];
}

export class SqliteAuthenticationStore {
  constructor(private readonly db: AirlineDatabase) {}

  /** Stores a new hold; call inside the transaction that sold its seats. */
  saveAuthentication(a: StoredAuthentication): void {
    this.db.run(
      'INSERT INTO authentications (spm_ref, pricing_response_id, expires_at, state, order_id, record) VALUES (?, ?, ?, ?, NULL, CAST(? AS TEXT))',
      [
        a.spmRef,
        a.pricingResponseId,
        a.expiresAt,
        a.state,
        jsonBytes({ ...a, state: undefined, orderId: undefined, acsStatus: undefined }),
      ],
    );
  }

  getAuthentication(spmRef: string): StoredAuthentication | undefined {
    return toAuthentication(this.db.get('SELECT * FROM authentications WHERE spm_ref = ?', [spmRef]));
  }

  /** The pending hold of pricing response `pricingResponseId`, if any. */
  pendingAuthenticationFor(pricingResponseId: string): StoredAuthentication | undefined {
    return toAuthentication(
      this.db.get("SELECT * FROM authentications WHERE pricing_response_id = ? AND state = 'pending' LIMIT 1", [
        pricingResponseId,
      ]),
    );
  }

  /** Pending holds whose window ended at or before `nowIso`. */
  expiredAuthentications(nowIso: string): StoredAuthentication[] {
    const rows = this.db.all("SELECT * FROM authentications WHERE state = 'pending' AND expires_at <= ?", [nowIso]);
    return rows.map((r) => toAuthentication(r)!);
  }

  /**
   * Ends pending hold `spmRef` as `state` (with `orderId` when ordered), inside the caller's
   * transaction; false when it is no longer pending.
   */
  endInTransaction(spmRef: string, state: Exclude<AuthenticationState, 'pending'>, orderId?: string): boolean {
    const changed = this.db.run(
      "UPDATE authentications SET state = ?, order_id = ? WHERE spm_ref = ? AND state = 'pending'",
      [state, orderId ?? null, spmRef],
    );
    return changed === 1;
  }

  /** Records the issuer page's decision of pending hold `spmRef` unless one was made; the decision in force. */
  decideAuthentication(spmRef: string, status: 'Y' | 'N'): 'Y' | 'N' | undefined {
    this.db.run(
      "UPDATE authentications SET acs_status = ? WHERE spm_ref = ? AND acs_status IS NULL AND state = 'pending'",
      [status, spmRef],
    );
    return this.getAuthentication(spmRef)?.acsStatus;
  }
}

function toAuthentication(row: Row | undefined): StoredAuthentication | undefined {
  if (!row) return undefined;
  const a = JSON.parse(String(row.record)) as StoredAuthentication;
  a.state = String(row.state) as AuthenticationState;
  if (row.order_id) a.orderId = String(row.order_id);
  if (row.acs_status) a.acsStatus = String(row.acs_status) as 'Y' | 'N';
  return a;
}

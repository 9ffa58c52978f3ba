/**
 * 3-D Secure at the embedded airline (docs/airline-service.md, "3-D Secure"): which cards need
 * it, the challenge (a CustomerInputRQ, the seats held meanwhile), the simulated issuer page's
 * decision, and the checks on the result a CustomerInputRS brings back. Orders themselves are
 * placed by OrdersService; this service decides and keeps the holds.
 */
import { randomBytes } from 'node:crypto';
import type {
  CustomerInputRq,
  CustomerInputRs,
  Money,
  OrderCreateRq,
  SecurePaymentAlert,
  ThreeDsResult,
} from '../../ndc/ndc.model';
import type { PendingChange } from '../servicing/servicing.types';
import { AGENCY_ID_ELEMENT, requireElement } from '../../ndc/require-element';
import { AirlineError } from '../airline.errors';
import type { AirlineClock, SoldSegment } from '../airline.ports';
import type { AirlineStore, StoredAuthentication } from '../store/airline.store';
import { CardVault } from '../tokens/vault';
import { type AcsStatus, AcsResultSigner } from './acs-result';

/** How a card's issuer behaves: `challenge` asks the cardholder; `fail` always fails authentication. */
export type ThreeDsMode = StoredAuthentication['mode'];

/** Test cards whose issuer asks for 3-D Secure (documented in docs/airline-service.md). */
export const THREE_DS_TEST_CARDS: Readonly<Record<string, ThreeDsMode>> = {
  '4000000000003220': 'challenge',
  '4000000000003063': 'fail',
};

/** Where an OrderCreateRQ carries its 3-D Secure data. */
export const SECURE_PAYMENT_ALERT = 'OrderCreateParameters/Alerts/Alert/SecurePaymentAlert';

/**
 * What a 3-D Secure hold is for: an OrderCreateRQ (`request`), or an OrderChangeRQ's payment
 * (`change`), with what the challenge and the issuer page need of it.
 */
export interface HoldSubject {
  /** What the hold is found by while pending: the OrderCreate's pricing response, `ORDER:<OrderID>` for a change. */
  key: string;
  party: { name?: string; agencyId?: string };
  transactionIdentifier?: string;
  tokenId: string;
  securePayment?: SecurePaymentAlert;
  /** Where the request carries its alert (named by the errors). */
  alertPath: string;
  request?: OrderCreateRq;
  change?: PendingChange;
  /** The hold ends by then at the latest (a held order's payment time limit); default: after the hold window. */
  until?: Date;
}

/** The hold subject of an OrderCreateRQ. */
export function orderCreateSubject(rq: OrderCreateRq): HoldSubject {
  return {
    key: rq.offers[0].responseId,
    party: rq.party,
    ...(rq.transactionIdentifier !== undefined ? { transactionIdentifier: rq.transactionIdentifier } : {}),
    tokenId: requireElement(rq.payments[0]?.voucherNumber, 'Query/Payments/Payment/Method/Voucher/Number'),
    ...(rq.securePayment !== undefined ? { securePayment: rq.securePayment } : {}),
    alertPath: SECURE_PAYMENT_ALERT,
    request: rq,
  };
}

/** ECI values of a successful or attempted authentication (Visa 05/06, Mastercard 02/01). */
const ACCEPTED_ECI = new Set(['05', '06', '02', '01']);

export interface AuthenticationOptions {
  /** AIRLINE_AUTHENTICATION_HOLD_MS. */
  holdMs: number;
  /** The vault key: decrypts card numbers and keys the result's MAC. */
  vaultKey: Buffer;
}

/** What the issuer page shows. */
export interface IssuerPageView {
  spmRef: string;
  amount: Money;
  lastFour: string;
  /** Set when the page can no longer decide (hold ended or expired). */
  closed?: string;
  /** Set once decided: where the browser goes (the same each time). */
  redirect?: string;
  /** The FailURL with a signed `N` result, for the page's Cancel link. */
  cancelUrl: string;
}

export class AuthenticationService {
  private readonly vault: CardVault;
  private readonly signer: AcsResultSigner;

  constructor(
    private readonly store: AirlineStore,
    private readonly clock: AirlineClock,
    private readonly options: AuthenticationOptions,
  ) {
    this.vault = new CardVault(options.vaultKey);
    this.signer = new AcsResultSigner(options.vaultKey);
  }

  /** The 3-D Secure mode of the card behind token `tokenId`, or undefined (no authentication). */
  modeOf(tokenId: string | undefined): ThreeDsMode | undefined {
    const sealed = tokenId === undefined ? undefined : this.store.tokens.tokenCiphertext(tokenId);
    return sealed === undefined ? undefined : THREE_DS_TEST_CARDS[this.vault.open(sealed)];
  }

  /** Last four digits of the card behind `tokenId` (shown on the issuer page). */
  private lastFourOf(tokenId: string): string {
    const sealed = this.store.tokens.tokenCiphertext(tokenId);
    return sealed === undefined ? '????' : this.vault.open(sealed).slice(-4);
  }

  /** Refuses a pre-authenticated result that is not a success (781). */
  checkPreAuthenticated(auth: ThreeDsResult): void {
    if (auth.status !== undefined && auth.status !== 'Y' && auth.status !== 'A') {
      throw new AirlineError(
        'AUTHENTICATION_DECLINED',
        `The 3-D Secure result has status ${auth.status}; the card was not charged`,
      );
    }
    const eci = requireElement(auth.eci, `${SECURE_PAYMENT_ALERT}/ProcessingInfos/ProcessingInfo/ECI`);
    if (!ACCEPTED_ECI.has(eci)) {
      throw new AirlineError(
        'AUTHENTICATION_DECLINED',
        `The 3-D Secure result has ECI ${eci}, not an authenticated one (05, 06, 02, 01)`,
      );
    }
  }

  /**
   * The URLs a challenge sends the browser back to: 780 when the request has no alert (at
   * `where`), `NdcMissingElementError` (701) naming `URLs/TermURL` or `URLs/FailURL` when the alert
   * lacks one (each is optional in the XSD).
   */
  requireAlert(
    alert: SecurePaymentAlert | undefined,
    where: string = SECURE_PAYMENT_ALERT,
  ): Required<Pick<SecurePaymentAlert, 'failUrl' | 'termUrl'>> {
    if (alert === undefined) {
      throw new AirlineError(
        'SECURE_PAYMENT_REQUIRED',
        `This card needs 3-D Secure: send ${where} with URLs/TermURL, URLs/FailURL and Details/CustomerDevice`,
      );
    }
    return {
      termUrl: requireElement(alert.termUrl, `${where}/URLs/TermURL`),
      failUrl: requireElement(alert.failUrl, `${where}/URLs/FailURL`),
    };
  }

  /**
   * A new hold for `subject` (call inside the transaction that sold `segments`) and the
   * CustomerInputRQ answering it, pointing the browser at `acsBaseUrl`/acs/<ref>.
   */
  hold(
    subject: HoldSubject,
    mode: ThreeDsMode,
    amount: Money,
    segments: SoldSegment[],
    acsBaseUrl: string,
  ): CustomerInputRq {
    const alert = this.requireAlert(subject.securePayment, subject.alertPath);
    const now = this.clock.now();
    const spmRef = `SPM-${randomBytes(16).toString('hex').toUpperCase()}`;
    const originalTransactionId = subject.transactionIdentifier ?? spmRef;
    const agencyId = requireElement(subject.party.agencyId, AGENCY_ID_ELEMENT);
    const payment = { spmRef, originalTransactionId, amount, ...alert };
    const challenge = this.challenge(subject.party.name, agencyId, payment, acsBaseUrl);
    const end = Math.min(now.getTime() + this.options.holdMs, subject.until?.getTime() ?? Infinity);
    this.store.authentications.saveAuthentication({
      spmRef,
      originalTransactionId,
      agencyId,
      pricingResponseId: subject.key,
      createdAt: now.toISOString(),
      expiresAt: new Date(end).toISOString(),
      state: 'pending',
      mode,
      lastFour: this.lastFourOf(subject.tokenId),
      amount,
      ...(subject.request !== undefined ? { request: subject.request } : {}),
      ...(subject.change !== undefined ? { change: subject.change } : {}),
      challenge,
      segments,
    });
    return challenge;
  }

  /** The CustomerInputRQ of a hold: one SecurePayment to authorise, the issuer page's address. */
  private challenge(
    name: string | undefined,
    agencyId: string,
    payment: { spmRef: string; originalTransactionId: string; amount: Money; failUrl: string; termUrl: string },
    acsBaseUrl: string,
  ): CustomerInputRq {
    return {
      target: 'Test',
      version: '17.2',
      party: { ...(name === undefined ? {} : { name }), agencyId },
      securePayments: [
        {
          transactionType: 'Authorize',
          spmTxnReference: payment.spmRef,
          originalTransactionId: payment.originalTransactionId,
          acsUrl: `${acsBaseUrl}/acs/${payment.spmRef}`,
          failUrl: payment.failUrl,
          termUrl: payment.termUrl,
          amount: payment.amount,
        },
      ],
    };
  }

  /** Ends every hold past its window and gives its seats back; how many. */
  releaseExpired(): number {
    const due = this.store.authentications.expiredAuthentications(this.clock.now().toISOString());
    let released = 0;
    for (const a of due) if (this.store.transaction(() => this.store.endAuthentication(a, 'expired'))) released++;
    return released;
  }

  /** What the issuer page of `spmRef` shows; undefined for an unknown reference. */
  page(spmRef: string): IssuerPageView | undefined {
    this.releaseExpired();
    const a = this.store.authentications.getAuthentication(spmRef);
    if (!a) return undefined;
    const view: IssuerPageView = { spmRef, amount: a.amount, lastFour: a.lastFour, cancelUrl: this.target(a, 'N') };
    if (a.state !== 'pending')
      view.closed =
        a.state === 'expired' ? 'The time to authenticate has passed.' : 'This payment has already been completed.';
    else if (a.acsStatus !== undefined) view.redirect = this.target(a, a.acsStatus);
    return view;
  }

  /**
   * The cardholder's choice on the issuer page: the first choice is final (a reload or the back
   * button gets the same answer). The `fail` test card fails whatever is chosen. Returns where
   * the browser goes (TermURL on success, FailURL otherwise), or undefined when the hold is not open.
   */
  decide(spmRef: string, approve: boolean): string | undefined {
    this.releaseExpired();
    const a = this.store.authentications.getAuthentication(spmRef);
    if (!a || a.state !== 'pending') return undefined;
    const status: AcsStatus = approve && a.mode === 'challenge' ? 'Y' : 'N';
    const decided = this.store.authentications.decideAuthentication(spmRef, status) ?? status;
    return this.target(a, decided);
  }

  /** TermURL (Y) or FailURL (N) of hold `a` with the signed result as `PaRes` and the reference as `MD`. */
  private target(a: StoredAuthentication, status: AcsStatus): string {
    const challenge = a.challenge.securePayments[0];
    const base = status === 'Y' ? challenge.termUrl : challenge.failUrl;
    const paRes = this.signer.sign({
      spmRef: a.spmRef,
      originalTransactionId: a.originalTransactionId,
      status,
      expiresAtMs: Date.parse(a.expiresAt),
    });
    const url = new URL(requireElement(base, status === 'Y' ? 'URLs/TermURL' : 'URLs/FailURL'));
    url.searchParams.set('PaRes', paRes);
    url.searchParams.set('MD', a.spmRef);
    return url.toString();
  }

  /**
   * Checks the result a CustomerInputRS brings back and returns the pending hold it approves, or
   * the `ordered` hold an approved result already made an order from (the caller answers that
   * order: a CustomerInputRS sent again after a lost answer never orders twice). Errors (nothing
   * is ordered): 782 not signed by us or for another transaction, 784 a declined result of a hold
   * that made an order, 783 past its window (the hold is released), 781 declined (the hold is
   * released; a declined hold answers 781 again).
   */
  approvedHold(rs: CustomerInputRs): StoredAuthentication {
    if (rs.kind !== 'success')
      throw new AirlineError('INVALID_REQUEST', 'A CustomerInputRS with Errors authorises nothing');
    const sp = requireElement(rs.securePayments[0], 'Response/SecurePayments/SecurePayment');
    const paRes = requireElement(sp.paRes, 'Response/SecurePayments/SecurePayment/PayerAuth/PARes');
    const result = this.signer.verify(paRes);
    const invalid = (why: string) =>
      new AirlineError('AUTHENTICATION_INVALID', `The authentication result ${why}; nothing was charged`);
    if (!result) throw invalid('was not issued by this airline or was altered');
    if (
      (sp.spmTxnReference !== undefined && sp.spmTxnReference !== result.spmRef) ||
      (sp.originalTransactionId !== undefined && sp.originalTransactionId !== result.originalTransactionId)
    ) {
      throw invalid('belongs to another transaction');
    }
    const hold = this.store.authentications.getAuthentication(result.spmRef);
    if (!hold || hold.originalTransactionId !== result.originalTransactionId)
      throw invalid('names an unknown transaction');
    // Exactly once: the approved result that made an order answers that order again (its first
    // answer may have been lost); a declined hold answers as it did, nothing was ordered.
    if (hold.state === 'ordered') {
      if (result.status === 'Y') return hold;
      throw new AirlineError(
        'AUTHENTICATION_USED',
        `The authentication result of ${hold.spmRef} was already used: order ${hold.orderId} was ${hold.change ? 'changed' : 'created'} from it`,
      );
    }
    if (hold.state === 'declined') {
      throw new AirlineError(
        'AUTHENTICATION_DECLINED',
        `The cardholder was not authenticated for ${hold.spmRef}; the seats were released and nothing was charged`,
      );
    }
    const expired = () =>
      new AirlineError(
        'AUTHENTICATION_EXPIRED',
        `The authentication of ${hold.spmRef} expired at ${hold.expiresAt}; the seats were released`,
      );
    if (hold.state === 'expired') throw expired();
    if (this.clock.now().getTime() >= Math.min(result.expiresAtMs, Date.parse(hold.expiresAt))) {
      this.store.transaction(() => this.store.endAuthentication(hold, 'expired'));
      throw expired();
    }
    if (result.status !== 'Y') {
      this.store.transaction(() => this.store.endAuthentication(hold, 'declined'));
      throw new AirlineError(
        'AUTHENTICATION_DECLINED',
        `The cardholder was not authenticated for ${hold.spmRef}; the seats were released and nothing was charged`,
      );
    }
    return hold;
  }
}

import { FAILURE_TYPES } from '../../src/booking/booking.failures';
import { EMBEDDED_AIRLINE_ERROR_CODES } from '../../src/ndc-client/airline-profile';
import {
  chooseTravelDates,
  customerInputAfterAbsent,
  needsApproval,
  nextSettleStep,
  remedyFor,
  reshopDecision,
  unavailableDecision,
  unsettledOutcome,
} from './decisions';

describe('chooseTravelDates', () => {
  const prices = [
    { direction: 0, date: '2027-03-08', price: '95.00' },
    { direction: 0, date: '2027-03-09', price: '90.00' },
    { direction: 0, date: '2027-03-11', price: '90.00' },
    { direction: 1, date: '2027-03-08', price: '10.00' },
    { direction: 1, date: '2027-03-16', price: '80.00' },
    { direction: 1, date: '2027-03-18', price: '80.00' },
  ];

  it('picks the cheapest date, ties closest to the preferred date then earlier, the return not before the outbound', () => {
    expect(chooseTravelDates(prices, { departureDate: '2027-03-10', returnDate: '2027-03-17' })).toEqual({
      departureDate: '2027-03-09',
      returnDate: '2027-03-16',
    });
    expect(chooseTravelDates(prices, { departureDate: '2027-03-11' })).toEqual({ departureDate: '2027-03-11' });
  });

  it('compares exact decimals, not floats', () => {
    const close = [
      { direction: 0, date: '2027-01-01', price: '100.10' },
      { direction: 0, date: '2027-01-02', price: '100.09' },
    ];
    expect(chooseTravelDates(close, { departureDate: '2027-01-01' }).departureDate).toBe('2027-01-02');
  });

  it('keeps the preferred date of a direction without any price', () => {
    expect(chooseTravelDates([], { departureDate: '2027-03-10', returnDate: '2027-03-17' })).toEqual({
      departureDate: '2027-03-10',
      returnDate: '2027-03-17',
    });
  });
});

describe('remedyFor and reshopDecision', () => {
  it('gives every failure type a remedy; only the "shop again" answers reshop', () => {
    const reshop = FAILURE_TYPES.filter((type) => remedyFor(type).startsWith('reshop'));
    expect(reshop.sort()).toEqual(['NO_SEATS', 'OFFER_EXPIRED', 'TOKEN_EXPIRED']);
    expect(FAILURE_TYPES.filter((type) => remedyFor(type) === 'reconcile').sort()).toEqual([
      'AIRLINE_TRANSIENT',
      'CANCEL_OUTCOME_UNKNOWN',
      'ORDER_OUTCOME_UNKNOWN',
    ]);
  });

  it('maps the NDC codes of the airline\'s "shop again" rows (711, 720, 721, 741) to a reshop', () => {
    for (const code of ['711', '720', '721', '741'])
      expect(remedyFor(EMBEDDED_AIRLINE_ERROR_CODES[code]!)).toBe('reshop');
    expect(remedyFor(EMBEDDED_AIRLINE_ERROR_CODES['751']!)).toBe('reshop-with-new-token');
  });

  it('reshops while rounds are left, says why, and asks for a new token only after a token failure', () => {
    expect(reshopDecision({ type: 'NO_SEATS', airlineCode: '711' }, { done: 0, max: 2 })).toEqual({
      reshop: true,
      newToken: false,
      reason: 'reshop 1/2 after NO_SEATS (711)',
    });
    expect(reshopDecision({ type: 'TOKEN_EXPIRED' }, { done: 1, max: 2 })).toEqual({
      reshop: true,
      newToken: true,
      reason: 'reshop 2/2 after TOKEN_EXPIRED',
    });
    expect(reshopDecision({ type: 'NO_SEATS' }, { done: 2, max: 2 })).toEqual({ reshop: false });
    expect(reshopDecision({ type: 'PRICE_MISMATCH', airlineCode: '740' }, { done: 0, max: 2 })).toEqual({
      reshop: false,
    });
  });
});

describe('needsApproval', () => {
  it('asks above maxTotal unless already approved up to that total', () => {
    expect(needsApproval('100.00', { maxTotal: '100.00' })).toBe(false);
    expect(needsApproval('100.01', { maxTotal: '100.00' })).toBe(true);
    expect(needsApproval('100.01', { maxTotal: '100.00', approvedTotal: '100.01' })).toBe(false);
    expect(needsApproval('103.02', { maxTotal: '100.00', approvedTotal: '100.01' })).toBe(true);
  });

  it('without maxTotal, asks only when a later round is dearer than what an earlier round accepted', () => {
    expect(needsApproval('999.00', {})).toBe(false);
    expect(needsApproval('103.02', { acceptedBefore: '103.02' })).toBe(false);
    expect(needsApproval('150.00', { acceptedBefore: '103.02' })).toBe(true);
    expect(needsApproval('150.00', { maxTotal: '200.00', acceptedBefore: '103.02' })).toBe(false);
  });
});

describe('nextSettleStep', () => {
  const window = 120_000;

  it.each([
    [0, 0, 1000],
    [1, 1000, 2000],
    [5, 31_000, 10_000],
    [12, 117_000, 3000],
  ])(
    'backs off 1 s, 2 s, 4 s ... 10 s, the last lookup exactly at the window end: after %i lookups at %i ms, the next in %i ms',
    (lookups, elapsedMs, delayMs) => {
      expect(nextSettleStep({ lookups, elapsedMs, windowMs: window, absentAfterWindow: false })).toEqual({
        kind: 'lookup',
        delayMs,
      });
    },
  );

  it('concludes absence only from a "no order" answered after the window', () => {
    expect(nextSettleStep({ lookups: 13, elapsedMs: 120_000, windowMs: window, absentAfterWindow: true })).toEqual({
      kind: 'absent',
    });
    // Window over, but the last lookup failed: look again.
    expect(nextSettleStep({ lookups: 13, elapsedMs: 125_000, windowMs: window, absentAfterWindow: false })).toEqual({
      kind: 'lookup',
      delayMs: 10_000,
    });
    // A zero window looks once, at once.
    expect(nextSettleStep({ lookups: 0, elapsedMs: 0, windowMs: 0, absentAfterWindow: false })).toEqual({
      kind: 'lookup',
      delayMs: 0,
    });
  });

  it('gives up deciding when no lookup answered for another window after it (at least 60 s)', () => {
    expect(nextSettleStep({ lookups: 20, elapsedMs: 240_000, windowMs: window, absentAfterWindow: false })).toEqual({
      kind: 'undecided',
    });
    expect(nextSettleStep({ lookups: 3, elapsedMs: 59_000, windowMs: 0, absentAfterWindow: false }).kind).toBe(
      'lookup',
    );
    expect(nextSettleStep({ lookups: 3, elapsedMs: 60_000, windowMs: 0, absentAfterWindow: false }).kind).toBe(
      'undecided',
    );
  });
});

describe('unsettledOutcome', () => {
  it('recreates while attempts are left, then fails; escalate always escalates', () => {
    expect(unsettledOutcome('recreate', 1, 5)).toEqual({ kind: 'recreate' });
    expect(unsettledOutcome('recreate', 5, 5)).toEqual({ kind: 'fail', type: 'ORDER_NOT_CREATED' });
    expect(unsettledOutcome('escalate', 1, 5)).toEqual({ kind: 'escalate', type: 'ORDER_UNSETTLED' });
  });
});

describe('customerInputAfterAbsent', () => {
  const open = { nowMs: 1_000, expiresAtMs: 2_000 };
  const fail = { kind: 'fail', type: 'ORDER_NOT_CREATED' };
  it('resends under recreate while attempts are left and the authentication window is open', () => {
    expect(customerInputAfterAbsent('recreate', 1, 5, open)).toEqual({ kind: 'resend' });
    expect(customerInputAfterAbsent('recreate', 4, 5, open)).toEqual({ kind: 'resend' });
  });
  it('fails once the attempts are used, the window has passed, or the policy is escalate', () => {
    expect(customerInputAfterAbsent('recreate', 5, 5, open)).toEqual(fail);
    expect(customerInputAfterAbsent('recreate', 1, 5, { nowMs: 2_000, expiresAtMs: 2_000 })).toEqual(fail);
    expect(customerInputAfterAbsent('escalate', 1, 5, open)).toEqual(fail);
  });
});

describe('unavailableDecision', () => {
  const base = { allowed: ['ZZ', 'YY'], sinceMs: 0, nowMs: 0, budgetMs: 600_000, waits: 0 };

  it('shops at the other airlines when the chosen one stopped answering', () => {
    expect(unavailableDecision({ ...base, chosen: 'ZZ' })).toEqual({
      kind: 'elsewhere',
      exclude: 'ZZ',
      reason: 'ZZ stopped answering before an order existed: shopping YY',
    });
  });

  it('tries them all again with backoff while the budget lasts, then fails', () => {
    expect(unavailableDecision({ ...base, waits: 3, nowMs: 60_000 })).toEqual({
      kind: 'wait',
      delayMs: 8000,
      reason: 'no airline answering (60 s of 600 s): trying again',
    });
    expect(unavailableDecision({ ...base, chosen: 'ZZ', allowed: ['ZZ'], waits: 9, nowMs: 100_000 })).toMatchObject({
      kind: 'wait',
      delayMs: 30_000,
    });
    expect(unavailableDecision({ ...base, waits: 9, nowMs: 580_000 })).toEqual({ kind: 'fail' });
  });
});

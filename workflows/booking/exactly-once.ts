/**
 * Exactly once at the airline (docs/orchestrator.md, "Never booking twice"): a call that may
 * change the order (OrderCreate, CustomerInput, OrderChange) is sent once; without a definite
 * answer it is settled by reading the order back until the settle window has passed, and sent
 * again only when the airline shows it did not take effect. Orchestration only: the orchestrators
 * pass the steps in, this module calls none itself.
 */
import type { PlaceOutcome, Placed, Unknown } from './context';

/** What reading the order back after an unknown outcome showed. */
export type Settled =
  /** The call took effect: the order as it now is. */
  | { kind: 'found'; placed: Placed }
  /** After the settle window, the airline shows it did not. */
  | { kind: 'absent' }
  /** No read answered for a window after the settle window: a person must check. */
  | { kind: 'undecided' };

/** A call made exactly once: how to send it, how to settle it, what follows when it did not take effect. */
export interface ExactlyOnce<Answer> {
  send(attempt: number): Promise<Answer | Unknown>;
  settle(): Promise<Settled>;
  /** The outcome when no read answered. */
  undecided(): PlaceOutcome;
  /** When the airline shows the call did not take effect: send it again, or this outcome. */
  afterAbsent(attempt: number): 'again' | PlaceOutcome;
}

/** Sends until the outcome is known: an answer is the outcome; no answer is settled first. */
export async function untilKnown<Answer extends { kind: string }>(
  call: ExactlyOnce<Answer>,
): Promise<Answer | PlaceOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    const sent = await call.send(attempt);
    if (!isUnknown(sent)) return sent;
    const settled = await call.settle();
    if (settled.kind === 'found') return settled.placed;
    if (settled.kind === 'undecided') return call.undecided();
    const next = call.afterAbsent(attempt);
    if (next !== 'again') return next;
  }
}

function isUnknown(sent: { kind: string }): sent is Unknown {
  return sent.kind === 'unknown';
}

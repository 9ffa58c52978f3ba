/**
 * What an answer meant, noted on the response (Express's `res.locals`) for the metrics and the
 * access log (src/api/observability): intake routes note the workflow they started or replayed
 * ({@link noteIntake}), the exception filter the problem code of an error answer
 * ({@link noteProblem}).
 */
import type { ServerResponse } from 'node:http';

/** What an intake route's answer meant. */
export interface IntakeNote {
  outcome: 'accepted' | 'replayed';
  /** Workflow id of the booking or batch. */
  workflowId: string;
}

const INTAKE = 'ndcSagaIntake';
const PROBLEM = 'ndcSagaProblem';

type WithLocals = ServerResponse & { locals?: Record<string, unknown> };

/** Express's `res.locals` (any response object: the API's own response type lacks it). */
function locals(res: object): Record<string, unknown> {
  const r = res as { locals?: Record<string, unknown> };
  r.locals ??= {};
  return r.locals;
}

/** Marks an intake answer: `existing` true is a replay of an earlier submission (same Idempotency-Key). */
export function noteIntake(res: object, accepted: { id: string; existing: boolean }): void {
  const note: IntakeNote = { outcome: accepted.existing ? 'replayed' : 'accepted', workflowId: accepted.id };
  locals(res)[INTAKE] = note;
}

/** The intake note of an answer, if an intake route made one. */
export function intakeOf(res: ServerResponse): IntakeNote | undefined {
  return (res as WithLocals).locals?.[INTAKE] as IntakeNote | undefined;
}

/** Marks an error answer with its problem code (the exception filter). */
export function noteProblem(res: object, code: string): void {
  locals(res)[PROBLEM] = code;
}

/** The problem code of an error answer, if the exception filter sent one. */
export function problemOf(res: ServerResponse): string | undefined {
  const code = (res as WithLocals).locals?.[PROBLEM];
  return typeof code === 'string' ? code : undefined;
}

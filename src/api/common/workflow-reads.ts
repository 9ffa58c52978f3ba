/**
 * Reading workflows the way every API route does: describe one (none is `undefined`), check the
 * caller may see it (its AgencyId search attribute), read its BookingStatus search attribute, and
 * name a failed query safely.
 */
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { BOOKING_STATUSES, type BookingStatus } from '../../booking/booking.model';
import { agencyScope, type Principal } from './principal';

/** True when `err` says there is no workflow with that id. */
export function isNotFound(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const name = (err as Error).name;
  return name === 'WorkflowNotFoundError' || (err as { cause?: { code?: number } }).cause?.code === 5;
}

/** Describes a workflow; undefined when there is none with that id. */
export async function describeOrUndefined(handle: {
  describe(): Promise<WorkflowExecutionDescription>;
}): Promise<WorkflowExecutionDescription | undefined> {
  try {
    return await handle.describe();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The agency a workflow belongs to: its AgencyId search attribute (set when it is started). */
export function agencyOf(d: WorkflowExecutionDescription): string | undefined {
  const v = (d.searchAttributes as Record<string, unknown[] | undefined> | undefined)?.AgencyId?.[0];
  return typeof v === 'string' ? v : undefined;
}

/** True when `principal` may see workflow `d` (ops: every one; an agency: its own). */
export function visibleTo(d: WorkflowExecutionDescription, principal: Principal): boolean {
  const scope = agencyScope(principal);
  return scope === undefined || agencyOf(d) === scope;
}

/** Status from the BookingStatus search attribute, if set. */
export function statusFromDescription(d: { searchAttributes?: unknown }): BookingStatus | undefined {
  const sa = d.searchAttributes as Record<string, unknown[] | undefined> | undefined;
  const v = sa?.BookingStatus?.[0];
  return typeof v === 'string' && (BOOKING_STATUSES as readonly string[]).includes(v)
    ? (v as BookingStatus)
    : undefined;
}

/** A short, safe name of a query failure for the `stale` note (no payloads). */
export function errorName(err: unknown): string {
  const grpc = (err as { cause?: { code?: unknown; details?: unknown } } | null)?.cause;
  const code = typeof grpc?.code === 'number' ? ` gRPC ${grpc.code}` : '';
  return `${(err as Error | null)?.name ?? 'Error'}${code}`;
}

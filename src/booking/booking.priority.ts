/**
 * Task priority of bookings: interactive bookings (`POST /bookings`, a customer waiting) go
 * before batch children (`POST /batches`) in the worker's rate-limited activity queue, and
 * agencies share that queue fairly. Set on the workflow when it is started; its activities (and a
 * batch's children, and theirs) inherit it on the server (docs/orchestrator.md, "Priority and
 * fairness").
 */
import type { Priority } from '@temporalio/common';

/** How a booking was asked for: one at a time by a waiting customer, or as part of a batch. */
export type BookingKind = 'interactive' | 'batch';

/** Temporal priority keys per kind: 1 is the highest; lower numbers are dispatched first. */
export type BookingPriorities = Readonly<Record<BookingKind, number>>;

/**
 * Defaults: interactive 2, batch 4. Anything started without a priority (webhook deliveries,
 * tools) gets the server's default, 3, in between; 1 stays free for operators.
 */
export const DEFAULT_BOOKING_PRIORITIES: BookingPriorities = { interactive: 2, batch: 4 };

/**
 * Highest priority key the Temporal server accepts as distinct (its `maxPriorityLevels`); a key
 * above the server's `matching.priorityLevels` (default 5) counts as that lowest level.
 */
export const MAX_PRIORITY_KEY = 60;

const VARIABLES: Readonly<Record<BookingKind, string>> = {
  interactive: 'BOOKING_PRIORITY_INTERACTIVE',
  batch: 'BOOKING_PRIORITY_BATCH',
};

/**
 * Reads `BOOKING_PRIORITY_INTERACTIVE` (default 2) and `BOOKING_PRIORITY_BATCH` (default 4):
 * whole numbers from 1 to {@link MAX_PRIORITY_KEY}. Interactive bookings may share the batches'
 * key (no precedence) but not come after them. Fails fast naming the variable.
 */
export function loadBookingPriorities(env: NodeJS.ProcessEnv = process.env): BookingPriorities {
  const read = (kind: BookingKind): number => {
    const name = VARIABLES[kind];
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return DEFAULT_BOOKING_PRIORITIES[kind];
    const value = Number(raw);
    if (!/^[0-9]+$/.test(raw) || value < 1 || value > MAX_PRIORITY_KEY)
      throw new Error(`${name}: must be a whole number from 1 (highest) to ${MAX_PRIORITY_KEY}, got "${raw}"`);
    return value;
  };
  const priorities = { interactive: read('interactive'), batch: read('batch') };
  if (priorities.interactive > priorities.batch) {
    throw new Error(
      `BOOKING_PRIORITY_INTERACTIVE: must not be a lower priority (a higher number) than BOOKING_PRIORITY_BATCH (${priorities.batch}), got "${priorities.interactive}"`,
    );
  }
  return priorities;
}

/**
 * The Temporal priority a booking (or batch) of `kind` for agency `agencyId` is started with:
 * the kind's priority key, and the agency as fairness key (weight: the server's default, 1, or
 * the task queue's override for that key), so agencies share the airline's quota evenly within
 * one priority level. Agency ids are at most 64 characters of `[A-Za-z0-9_.-]`, the server's
 * limit for a fairness key.
 */
export function bookingPriority(kind: BookingKind, agencyId: string, priorities: BookingPriorities): Priority {
  return { priorityKey: priorities[kind], fairnessKey: agencyId };
}

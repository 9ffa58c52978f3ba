/**
 * A fake Temporal client for the API's HTTP specs (test/api/http.spec.ts,
 * test/api/servicing-http.spec.ts): workflows are entries of a map the test writes (status, state,
 * result, search attributes); starts, signals and updates are recorded; updates are answered by a
 * function per update name. Deadlines are real (`withDeadline`), so an update that never answers
 * runs into the API's query timeout as it would against a server.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS } from '../../src/temporal/search-attributes';
import type { UiPayloadCodec } from '../../src/api/codec/codec.controller';

/** Start time of every fake workflow. */
export const FAKE_START = new Date('2026-11-21T10:00:00Z');

/** What an update of a fake run does with its argument: answers, throws (a refusal, a failure), or never settles. */
export type FakeUpdate = (arg: unknown) => Promise<unknown>;

export interface FakeRun {
  type: string;
  status: string;
  memo: Record<string, unknown>;
  searchAttributes: Record<string, unknown[]>;
  args: unknown[];
  state?: unknown;
  result?: unknown;
  queryError?: Error;
  /** Answers of the queries other than `state` / `progress` (`orderView`, `seatMap`). */
  queries?: Record<string, unknown>;
  /** No worker accepts its updates (they never reach the accepted stage). */
  unaccepted?: boolean;
  signals: string[];
  /** The answer of each update by name; an update without one fails the test. */
  updates: Record<string, FakeUpdate>;
  /** Every update sent, in order. */
  updateCalls: { name: string; arg: unknown; updateId?: string }[];
}

class NotFound extends Error {
  override name = 'WorkflowNotFoundError';
}

/** A never-settling promise: an update still running (3-D Secure, a price approval). */
export const pending = (): Promise<never> => new Promise<never>(() => undefined);

export function fakeClient() {
  const runs = new Map<string, FakeRun>();
  const handle = (id: string) => ({
    workflowId: id,
    describe: async () => {
      const r = runs.get(id);
      if (r === undefined) throw new NotFound(id);
      return {
        workflowId: id,
        type: r.type,
        status: { name: r.status },
        memo: r.memo,
        searchAttributes: r.searchAttributes,
        startTime: FAKE_START,
        historyLength: 3,
      };
    },
    query: async (def: { name: string }) => {
      const r = runs.get(id)!;
      if (r.queryError !== undefined) throw r.queryError;
      if (r.queries !== undefined && def.name in r.queries) return r.queries[def.name];
      expect(def.name).toBe(r.type === 'batchWorkflow' ? 'progress' : 'state');
      return r.state;
    },
    result: async () => runs.get(id)!.result,
    signal: async (def: { name: string }) => {
      runs.get(id)!.signals.push(def.name);
    },
    startUpdate: async (def: { name: string }, options: { args: unknown[]; updateId?: string }) => {
      const r = runs.get(id)!;
      const [arg] = options.args;
      r.updateCalls.push({
        name: def.name,
        arg,
        ...(options.updateId !== undefined ? { updateId: options.updateId } : {}),
      });
      if (r.unaccepted === true) return pending();
      const answer = r.updates[def.name];
      if (answer === undefined) throw new Error(`fake run ${id} has no answer for update ${def.name}`);
      // Accepted at once; a refusal or a failure comes with the result, as either does from the SDK.
      const outcome = answer(arg);
      outcome.catch(() => undefined);
      return { updateId: options.updateId ?? 'fresh', workflowId: id, result: () => outcome };
    },
  });
  return {
    runs,
    /** Runs `call`, failing as the SDK fails an update call past its deadline. */
    withDeadline: <T>(deadline: number, call: () => Promise<T>): Promise<T> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new WorkflowUpdateRPCTimeoutOrCancelledError('deadline exceeded', { cause: new Error('4') })),
          Math.max(0, deadline - Date.now()),
        );
      });
      return Promise.race([call(), late]).finally(() => clearTimeout(timer));
    },
    workflow: {
      getHandle: handle,
      start: jest.fn(
        async (
          type: string,
          opts: {
            workflowId: string;
            memo: Record<string, unknown>;
            args: unknown[];
            searchAttributes: Record<string, unknown[]>;
          },
        ) => {
          // As the server answers a start with conflict policy FAIL and REJECT_DUPLICATE.
          if (runs.has(opts.workflowId)) {
            throw new WorkflowExecutionAlreadyStartedError('already started', opts.workflowId, type);
          }
          runs.set(opts.workflowId, {
            type,
            status: 'RUNNING',
            memo: opts.memo,
            searchAttributes: opts.searchAttributes,
            args: opts.args,
            state: { status: 'RUNNING', steps: [] },
            signals: [],
            updates: {},
            updateCalls: [],
          });
          return handle(opts.workflowId);
        },
      ),
      list: jest.fn(),
    },
    connection: {
      workflowService: { getSystemInfo: async () => ({ serverVersion: 'fake' }) },
      operatorService: {
        listSearchAttributes: async () => ({
          customAttributes: Object.fromEntries(BOOKING_SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, 2])),
        }),
      },
    },
  };
}

export type FakeClient = ReturnType<typeof fakeClient>;

export const fakeCodec: UiPayloadCodec = {
  decode: async (payloads) =>
    payloads.map((p) => ({ ...p, data: Buffer.from(`decoded:${Buffer.from(p.data!).toString()}`) })),
  encode: async (payloads) =>
    payloads.map((p) => ({ ...p, data: Buffer.from(`encoded:${Buffer.from(p.data!).toString()}`) })),
};

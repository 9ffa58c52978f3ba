/**
 * Determinism guard: the recorded histories of the main booking paths (recorded by
 * booking.e2e-spec.ts with RECORD_HISTORIES=1) must replay against the current workflow code.
 * A change that alters the order of commands (activities, timers, search attribute upserts)
 * fails here: version such changes with `patched()`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from '@temporalio/worker';
import { createDataConverter } from '../../src/temporal/data-converter';
import { workflowBundle } from './booking.fixtures';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';

const HISTORIES = path.join(__dirname, 'histories');
/** History name -> the workflow id it was recorded under (written by the recording run). */
const workflowIds = JSON.parse(fs.readFileSync(path.join(HISTORIES, 'workflow-ids.json'), 'utf8')) as Record<
  string,
  string
>;

/**
 * The paths whose histories are kept (see booking.e2e-spec.ts). The `-webhook-signal` ones were
 * recorded while status events went to the webhook registry by a signal from the workflow
 * (before the `status-local-signal` patch), the others before webhooks existed.
 * `two-airlines-reshop` is a booking routed by airline (shops at ZZ and YY, orders at YY, 711,
 * shops again at both), recorded by test/api/airlines.e2e-spec.ts.
 * `authentication-customer-input-resent` is a 3-D Secure booking whose CustomerInputRS got no
 * answer and no order after the settle window, sent again (the `customer-input-resend` patch).
 */
const EXPECTED = [
  'authentication-customer-input-resent',
  'batch-of-5',
  'batch-of-5-webhook-signal',
  'expired-offer-reshop',
  'one-way',
  'one-way-webhook-signal',
  'order-outcome-unknown-adopted',
  'price-guard-approve',
  'price-guard-approve-webhook-signal',
  'price-guard-cancel',
  'two-airlines-reshop',
];

describe('recorded booking histories', () => {
  it('are all present', () => {
    const files = fs.readdirSync(HISTORIES).filter((f) => f.endsWith('.json') && f !== 'workflow-ids.json');
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(EXPECTED);
    expect(Object.keys(workflowIds).sort()).toEqual(EXPECTED);
  });

  it('replay without a determinism error against the current workflow code', async () => {
    const histories = EXPECTED.map((name) => ({
      workflowId: workflowIds[name]!,
      history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(HISTORIES, `${name}.json`), 'utf8'))),
    }));
    const results: { workflowId: string; error?: string }[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: await workflowBundle(), dataConverter: createDataConverter() },
      histories,
    )) {
      results.push({
        workflowId: result.workflowId,
        ...(result.error !== undefined ? { error: String(result.error) } : {}),
      });
    }
    expect(results).toEqual(EXPECTED.map((name) => ({ workflowId: workflowIds[name] })));
  });

  it('fail to replay when the workflow code changed its commands (the guard can fail)', async () => {
    // The one-way history, but with the first activity renamed: replay must detect the mismatch.
    const json = fs
      .readFileSync(path.join(HISTORIES, 'one-way.json'), 'utf8')
      .replace('"name": "shop"', '"name": "price"');
    const results: { error?: unknown }[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: await workflowBundle(), dataConverter: createDataConverter() },
      [{ workflowId: workflowIds['one-way']!, history: historyFromJSON(JSON.parse(json)) }],
    )) {
      results.push(result);
    }
    expect(results).toHaveLength(1);
    expect(String(results[0]!.error)).toMatch(/[Nn]ondeterminism|DeterminismViolation/);
  });
});

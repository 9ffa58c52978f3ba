/**
 * Jest test sequencer that keeps the default order and records, before the global setup runs,
 * whether any selected test file needs the shared Temporal dev server.
 *
 * Rule (documented in docs/operations.md): a test file needs the server when its source mentions
 * one of NEEDS_TEMPORAL_MARKERS, i.e. it imports `test/support/temporal-env`, a Temporal client or
 * worker, or reads TEMPORAL_TEST_ADDRESS. Jest runs `sort` before `globalSetup`, in the same process.
 */
const fs = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** Strings whose presence in a test file's source means it needs the Temporal dev server. */
const NEEDS_TEMPORAL_MARKERS = ['temporal-env', 'TEMPORAL_TEST_ADDRESS', '@temporalio/client', '@temporalio/worker'];

function needsTemporal(testPath) {
  try {
    const source = fs.readFileSync(testPath, 'utf8');
    return NEEDS_TEMPORAL_MARKERS.some((marker) => source.includes(marker));
  } catch {
    return false;
  }
}

class TemporalAwareSequencer extends Sequencer {
  sort(tests) {
    const files = tests.filter((test) => needsTemporal(test.path)).map((test) => test.path);
    process.env.NDC_SAGA_TEMPORAL_TEST_FILES = JSON.stringify(files);
    return super.sort(tests);
  }
}

module.exports = TemporalAwareSequencer;
module.exports.NEEDS_TEMPORAL_MARKERS = NEEDS_TEMPORAL_MARKERS;

/**
 * Jest test sequencer that keeps the default order and records, before the global setup runs,
 * whether any selected test file needs the shared Temporal dev server.
 *
 * Rule (documented in docs/operations.md): a test file needs the server when its source, or a file
 * under `test/` it imports (transitively), mentions one of NEEDS_TEMPORAL_MARKERS, i.e. imports
 * `test/support/temporal-env`, a Temporal client or worker, or reads TEMPORAL_TEST_ADDRESS. Jest runs `sort` before `globalSetup`, in the same process.
 */
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Test-side sources followed through their imports. */
const TEST_ROOT = path.resolve(__dirname, '..') + path.sep;

/** Strings whose presence in a test file's source means it needs the Temporal dev server. */
const NEEDS_TEMPORAL_MARKERS = ['temporal-env', 'TEMPORAL_TEST_ADDRESS', '@temporalio/client', '@temporalio/worker'];

/** Relative imports of a source (`from './x'`, `require('../y')`, `import('./z')`). */
const RELATIVE_IMPORT = /(?:from\s+|require\(\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The file a relative import names (`.ts`, `.js` or an index), if any. */
function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.js`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.js'),
  ]) {
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * True when the file, or a test-side file it imports (transitively, outside `src/`, `workflows/`
 * and `activities/`), mentions a marker: a spec that gets its worker from a shared fixture needs
 * the server as much as one that imports the SDK itself.
 */
function needsTemporal(testPath, seen = new Set()) {
  if (seen.has(testPath)) return false;
  seen.add(testPath);
  let source;
  try {
    source = fs.readFileSync(testPath, 'utf8');
  } catch {
    return false;
  }
  if (NEEDS_TEMPORAL_MARKERS.some((marker) => source.includes(marker))) return true;
  for (const match of source.matchAll(RELATIVE_IMPORT)) {
    const imported = resolveImport(testPath, match[1]);
    if (imported === undefined || !imported.startsWith(TEST_ROOT)) continue;
    if (needsTemporal(imported, seen)) return true;
  }
  return false;
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
module.exports.needsTemporal = needsTemporal;

/**
 * Which test files get the shared Temporal dev server (test/support/temporal-sequencer.js).
 */
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { needsTemporal } = require('./temporal-sequencer') as { needsTemporal: (file: string) => boolean };

const repo = path.resolve(__dirname, '../..');
const needs = (file: string): boolean => needsTemporal(path.join(repo, file));

describe('temporal sequencer', () => {
  it('a spec that imports the SDK or temporal-env needs the server', () => {
    expect(needs('test/temporal-smoke.e2e-spec.ts')).toBe(true);
    expect(needs('test/workflows/booking-timers.e2e-spec.ts')).toBe(true);
  });

  it('so does a spec that gets its worker and harness from a test-side fixture', () => {
    // saga-airline imports neither the SDK nor temporal-env itself, only booking.fixtures.
    expect(needs('test/workflows/saga-airline.e2e-spec.ts')).toBe(true);
    expect(needs('test/workflows/saga-dialect.e2e-spec.ts')).toBe(true);
  });

  it('codec and airline specs do not', () => {
    expect(needs('src/ndc/xml.spec.ts')).toBe(false);
    expect(needs('test/ndc/third-party.spec.ts')).toBe(false);
    expect(needs('test/airline/valid-requests.e2e-spec.ts')).toBe(false);
  });
});

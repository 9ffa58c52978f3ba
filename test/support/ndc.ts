/**
 * Spec helpers for the NDC codec (`src/ndc/*.spec.ts`). Test-only: nothing under `src/` outside
 * a spec imports this file.
 */
import { NdcDecodeError } from '../../src/ndc/ndc-decode-error';

/**
 * Runs `f` and returns the `NdcDecodeError` it throws. Any other error is rethrown, and a `f` that
 * returns normally fails the test with "expected an NdcDecodeError".
 */
export function decodeError(f: () => unknown): NdcDecodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof NdcDecodeError) return e;
    throw e;
  }
  throw new Error('expected an NdcDecodeError');
}

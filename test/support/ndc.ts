/**
 * Spec helpers for the NDC codec (`src/ndc/*.spec.ts`). Test-only: nothing under `src/` outside
 * a spec imports this file.
 */
import { NdcDecodeError } from '../../src/ndc/ndc-decode-error';
import { expectValidXsd } from './xsd';

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

/**
 * Encodes `msg`, checks the XML against the XSD of `root`, and decodes it again: the XML and the
 * model read back, for the spec to compare.
 */
export function xsdRoundTrip<T>(
  msg: T,
  encode: (m: T) => string,
  decode: (xml: string) => T,
  root: string,
): { xml: string; back: T } {
  const xml = encode(msg);
  expectValidXsd(xml, root);
  return { xml, back: decode(xml) };
}

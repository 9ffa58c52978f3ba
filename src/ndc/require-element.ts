/**
 * Business-level check for data an NDC message may legally omit. The codec
 * decodes every schema-valid message, so fields the XSD makes optional are
 * optional in the model; where our logic needs one, it asks for it here and
 * gets a typed error naming the element, instead of a decode failure.
 */

/** Stable code of {@link NdcMissingElementError}. */
export const NDC_MISSING_ELEMENT = 'NDC_MISSING_ELEMENT';

/**
 * A message lacks an element (or attribute) the schema allows it to omit but
 * our logic needs. `element` is the path inside the message, e.g.
 * `Order/Status` or `Party/Sender/TravelAgencySender/Name`.
 */
export class NdcMissingElementError extends Error {
  override readonly name = 'NdcMissingElementError';
  readonly code = NDC_MISSING_ELEMENT;

  constructor(readonly element: string) {
    super(`the message has no ${element}, which this operation needs`);
  }
}

/** Returns `value`, or throws {@link NdcMissingElementError} naming `element` when it is absent (undefined, null or ''). */
export function requireElement<T>(value: T | undefined | null, element: string): T {
  if (value === undefined || value === null || (value as unknown) === '') throw new NdcMissingElementError(element);
  return value;
}

/** Element path of the sending agency's id, for `requireElement(rq.party.agencyId, AGENCY_ID_ELEMENT)`. */
export const AGENCY_ID_ELEMENT = 'Party/Sender/TravelAgencySender/AgencyID';

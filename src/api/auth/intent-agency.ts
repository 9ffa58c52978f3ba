/**
 * The agency of a submitted intent comes from the credential: an intent without `agency.id` gets
 * the caller's; one naming another agency is refused (403) unless the caller is ops, who may act
 * for any agency.
 */
import type { BookingIntent, SubmittedIntent } from '../../booking/booking.model';
import { ApiError } from '../common/api-error';
import type { Principal } from '../common/principal';

/** `intent` with its agency id settled for `caller`; `path` prefixes the field path (`[3].`) in a batch. */
export function intentForCaller(intent: SubmittedIntent, caller: Principal, path = ''): BookingIntent {
  const named = intent.agency.id;
  if (named !== undefined && caller.role !== 'ops' && named !== caller.agencyId) {
    throw new ApiError('AGENCY_MISMATCH', "The intent names an agency other than the credential's", {
      fields: [{ path: `${path}agency.id`, message: 'must be the agency of your credential, or left out' }],
    });
  }
  return { ...intent, agency: { ...intent.agency, id: named ?? caller.agencyId } };
}

/**
 * Typed keys of the booking saga's custom search attributes (all Keyword).
 *
 * Pure: imported by the workflow bundle as well as by clients. Registration on a cluster lives in
 * `search-attributes.registration.ts` (it needs a connection).
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** `RUNNING`, `AWAITING_APPROVAL`, `CONFIRMED`, `FAILED` or `CANCELLED`. */
export const BookingStatusKey = defineSearchAttributeKey('BookingStatus', SearchAttributeType.KEYWORD);
/** The intent's `agency.id`. */
export const AgencyIdKey = defineSearchAttributeKey('AgencyId', SearchAttributeType.KEYWORD);
/** `<origin>-<destination>` of the outbound direction, e.g. `LGW-OSL`. */
export const RouteKey = defineSearchAttributeKey('Route', SearchAttributeType.KEYWORD);
/** The airline's six-character booking reference, once the order exists. */
export const BookingReferenceKey = defineSearchAttributeKey('BookingReference', SearchAttributeType.KEYWORD);

/** Designator of the airline whose offer was chosen (the owner of the order). */
export const AirlineKey = defineSearchAttributeKey('Airline', SearchAttributeType.KEYWORD);

/** The extras the intent asks for: `bags`, `seats` or `bags+seats` (absent without extras). */
export const ExtrasKey = defineSearchAttributeKey('Extras', SearchAttributeType.KEYWORD);

/** Every booking search attribute key, in registration order. */
export const BOOKING_SEARCH_ATTRIBUTE_KEYS = [
  BookingStatusKey,
  AgencyIdKey,
  RouteKey,
  BookingReferenceKey,
  AirlineKey,
  ExtrasKey,
] as const;

/**
 * SeatAvailabilityRQ: the seat maps of an offer, by `ShoppingResponseID` and `Query/Offer`
 * (OfferID, Owner, ResponseID, SegmentIDs, PassengerIDs), with the PassengerList.
 */
import type { SeatAvailabilityOffer, SeatAvailabilityRq } from './extras.model';
import { decodeRequestCommon, encodePassengerList, encodeRequestCommon } from './common.codec';
import { decodeRequestPassengers, decodeShoppingResponseId, encodeShoppingResponseId } from './service-list-rq.codec';
import {
  addEl,
  endMessage,
  many,
  opt,
  parseNdc,
  reqAttr,
  text,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'SeatAvailabilityRQ';

/** Serialises a SeatAvailabilityRQ (valid against SeatAvailabilityRQ.xsd; `parameters` are not written). */
export function encodeSeatAvailabilityRq(rq: SeatAvailabilityRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  encodeShoppingResponseId(root, rq.shoppingResponseId);
  if (rq.offer !== undefined) encodeOffer(addEl(root, 'Query'), rq.offer);
  if (rq.passengers.length > 0) encodePassengerList(addEl(root, 'DataLists'), rq.passengers);
  return endMessage(root);
}

/** Parses and decodes a SeatAvailabilityRQ; throws {@link NdcDecodeError}. */
export function decodeSeatAvailabilityRq(xml: string | Buffer, opts?: ParseOptions): SeatAvailabilityRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const rq: SeatAvailabilityRq = {
    ...decodeRequestCommon(node, path),
    passengers: decodeRequestPassengers(node, path),
  };
  // The request's Parameters are a SeatAvailReqParamsType, not the shopping ones decodeRequestCommon reads.
  delete rq.parameters;
  const sr = decodeShoppingResponseId(node, path);
  if (sr !== undefined) rq.shoppingResponseId = sr;
  const query = opt(node, 'Query');
  const offer = query === undefined ? undefined : opt(query, 'Offer');
  if (offer !== undefined) rq.offer = decodeOffer(offer, `${path}/Query/Offer`);
  return rq;
}

function encodeOffer(parent: XMLBuilder, o: SeatAvailabilityOffer): void {
  const el = addEl(parent, 'Offer').att('OfferID', o.offerId).att('Owner', o.owner).att('ResponseID', o.responseId);
  for (const s of o.segmentIds) addEl(el, 'SegmentID', s);
  for (const p of o.passengerIds) addEl(el, 'PassengerID', p);
}

function decodeOffer(node: XNode, path: string): SeatAvailabilityOffer {
  return {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    responseId: reqAttr(node, 'ResponseID', path),
    segmentIds: many(node, 'SegmentID')
      .map(text)
      .filter((s) => s !== ''),
    passengerIds: many(node, 'PassengerID')
      .map(text)
      .filter((s) => s !== ''),
  };
}

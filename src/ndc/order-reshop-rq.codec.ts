/**
 * OrderReshopRQ (NDC 17.2): the request preamble, then `Query` with the `OrderID`, optional
 * `BookingReferences`, and either `Reshop/OrderServicing` (`Add` with a `FlightQuery`,
 * preferences and passengers; `Delete/OrderItem@OrderItemID`), `Reshop/NameChange` (decoded
 * only) or `Reprice/OrderItemID`; then `DataLists/PassengerList`.
 */
import type { OrderReshopAction, OrderReshopRq, ReshopAdd } from './servicing.model';
import { decodeCoreQuery, encodeCoreQuery } from './air-shopping-rq.codec';
import { decodeRequestCommon, encodePassengerList, encodeRequestCommon } from './common.codec';
import { decodeBookingReferences, encodeBookingReferences } from './order-cancel-rq.codec';
import { decodeRequestPassengers, encodeOrderId } from './service-list-rq.codec';
import type { OrderRef } from './ndc.model';
import {
  addEl,
  addRefs,
  attr,
  decodeRefs,
  endMessage,
  many,
  one,
  opt,
  optText,
  optValue,
  parseNdc,
  reqAttr,
  reqText,
  text,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'OrderReshopRQ';

/**
 * Serialises an OrderReshopRQ (valid against OrderReshopRQ.xsd; `parameters` are not written).
 * Throws a plain `Error` for `owner` without an `add`, which 17.2 has no other place for, and for a
 * name change (decoded only).
 */
export function encodeOrderReshopRq(rq: OrderReshopRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  const query = addEl(root, 'Query');
  addEl(query, 'OrderID', rq.orderId);
  if (rq.bookingReferences?.length) encodeBookingReferences(query, rq.bookingReferences);
  encodeAction(query, rq);
  if (rq.passengers.length > 0) encodePassengerList(addEl(root, 'DataLists'), rq.passengers);
  return endMessage(root);
}

/** Parses and decodes an OrderReshopRQ; throws {@link NdcDecodeError}. */
export function decodeOrderReshopRq(xml: string | Buffer, opts?: ParseOptions): OrderReshopRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const qPath = `${path}/Query`;
  const query = one(node, 'Query', path);
  const rq: OrderReshopRq = {
    ...decodeRequestCommon(node, path),
    orderId: reqText(query, 'OrderID', qPath),
    action: decodeAction(query, qPath),
    passengers: decodeRequestPassengers(node, path),
  };
  // ReshopParameters are not the shopping Parameters decodeRequestCommon reads (none here).
  delete rq.parameters;
  const refs = opt(query, 'BookingReferences');
  if (refs !== undefined) rq.bookingReferences = decodeBookingReferences(refs, `${qPath}/BookingReferences`);
  const owner = existingOrderOwner(query);
  if (owner !== undefined) rq.owner = owner;
  return rq;
}

// ------------------------------------------------------------------ encode

function encodeAction(query: XMLBuilder, rq: OrderReshopRq): void {
  const action = rq.action;
  if (rq.owner !== undefined && !(action.kind === 'servicing' && action.add !== undefined))
    throw new Error('OrderReshopRQ: owner travels only with an add (ExistingOrderQualifier)');
  switch (action.kind) {
    case 'servicing': {
      const servicing = addEl(addEl(query, 'Reshop'), 'OrderServicing');
      if (action.add !== undefined) encodeAdd(servicing, action.add, rq);
      if (action.deleteOrderItemIds.length > 0) {
        const del = addEl(servicing, 'Delete');
        for (const id of action.deleteOrderItemIds) addEl(del, 'OrderItem').att('OrderItemID', id);
      }
      return;
    }
    case 'reprice': {
      const reprice = addEl(query, 'Reprice');
      for (const id of action.orderItemIds) addEl(reprice, 'OrderItemID', id);
      return;
    }
    case 'nameChange':
      throw new Error('OrderReshopRQ: a name change is decoded only');
  }
}

/** `Add`: FlightQuery, the ExistingOrderQualifier naming the owner, Preference (fare, cabin), Passengers. */
function encodeAdd(servicing: XMLBuilder, add: ReshopAdd, rq: OrderReshopRq): void {
  const el = addEl(servicing, 'Add');
  if (add.flightQuery !== undefined) encodeCoreQuery(addEl(el, 'FlightQuery'), add.flightQuery);
  if (rq.owner !== undefined) {
    const pax = add.passengerRefs ?? rq.passengers.map((p) => p.passengerId);
    encodeExistingOrder(addEl(el, 'Qualifier'), { orderId: rq.orderId, owner: rq.owner }, pax);
  }
  if (add.priceClass !== undefined || add.cabin !== undefined) {
    const pref = addEl(el, 'Preference');
    if (add.priceClass !== undefined)
      addEl(addEl(addEl(addEl(pref, 'FarePreferences'), 'FareCodes'), 'Code'), 'Code', add.priceClass);
    if (add.cabin !== undefined) addEl(addEl(addEl(pref, 'CabinPreferences'), 'CabinType'), 'Code', add.cabin);
  }
  if (add.passengerRefs !== undefined) addRefs(addEl(el, 'Passengers'), 'PassengerReferences', add.passengerRefs);
}

/** `ExistingOrderQualifier/OrderKeys/OrderID@Owner` and its (required) `PassengerReferences`. */
function encodeExistingOrder(qualifier: XMLBuilder, order: OrderRef, pax: readonly string[]): void {
  if (pax.length === 0) throw new Error('OrderReshopRQ: owner needs the passengers (add.passengerRefs or passengers)');
  const eoq = addEl(qualifier, 'ExistingOrderQualifier');
  encodeOrderId(addEl(eoq, 'OrderKeys'), order);
  addRefs(eoq, 'PassengerReferences', pax);
}

// ------------------------------------------------------------------ decode

/** `Query`'s choice: Reshop (OrderServicing or NameChange) or Reprice. */
function decodeAction(query: XNode, path: string): OrderReshopAction {
  const reprice = opt(query, 'Reprice');
  if (reprice !== undefined) {
    return {
      kind: 'reprice',
      orderItemIds: many(reprice, 'OrderItemID')
        .map(text)
        .filter((id) => id !== ''),
    };
  }
  const rPath = `${path}/Reshop`;
  const reshop = one(query, 'Reshop', path);
  const nameChange = opt(reshop, 'NameChange');
  if (nameChange !== undefined)
    return { kind: 'nameChange', passengerId: reqText(nameChange, 'PassengerID', `${rPath}/NameChange`) };
  const sPath = `${rPath}/OrderServicing`;
  const servicing = one(reshop, 'OrderServicing', rPath);
  const del = opt(servicing, 'Delete');
  const action: OrderReshopAction = {
    kind: 'servicing',
    deleteOrderItemIds:
      del === undefined
        ? []
        : many(del, 'OrderItem').map((it, i) => reqAttr(it, 'OrderItemID', `${sPath}/Delete/OrderItem[${i + 1}]`)),
  };
  const add = opt(servicing, 'Add');
  if (add !== undefined) action.add = decodeAdd(add, `${sPath}/Add`);
  return action;
}

/** `Add`: the flight query in a shape we model, the fare code and cabin preferences, the passengers. */
function decodeAdd(node: XNode, path: string): ReshopAdd {
  const add: ReshopAdd = {};
  const fq = opt(node, 'FlightQuery');
  const flightQuery = fq === undefined ? undefined : decodeCoreQuery(fq, `${path}/FlightQuery`);
  if (flightQuery !== undefined) add.flightQuery = flightQuery;
  const pref = opt(node, 'Preference');
  const fare = pref === undefined ? undefined : opt(pref, 'FarePreferences');
  const fareCodes = fare === undefined ? undefined : opt(fare, 'FareCodes');
  const fareCode = fareCodes === undefined ? undefined : opt(fareCodes, 'Code');
  const priceClass = fareCode === undefined ? undefined : optValue(fareCode, 'Code');
  if (priceClass !== undefined) add.priceClass = priceClass;
  const cabins = pref === undefined ? undefined : opt(pref, 'CabinPreferences');
  const cabinType = cabins === undefined ? undefined : opt(cabins, 'CabinType');
  const cabin = cabinType === undefined ? undefined : optValue(cabinType, 'Code');
  if (cabin !== undefined) add.cabin = cabin;
  const pax = opt(node, 'Passengers');
  const refs = pax === undefined ? undefined : optText(pax, 'PassengerReferences');
  if (refs !== undefined) add.passengerRefs = decodeRefs(refs);
  return add;
}

/** `Add/Qualifier/ExistingOrderQualifier/OrderKeys/OrderID@Owner` of any Qualifier, or undefined. */
function existingOrderOwner(query: XNode): string | undefined {
  const reshop = opt(query, 'Reshop');
  const servicing = reshop === undefined ? undefined : opt(reshop, 'OrderServicing');
  const add = servicing === undefined ? undefined : opt(servicing, 'Add');
  for (const q of add === undefined ? [] : many(add, 'Qualifier')) {
    const eoq = opt(q, 'ExistingOrderQualifier');
    const keys = eoq === undefined ? undefined : opt(eoq, 'OrderKeys');
    const id = keys === undefined ? undefined : opt(keys, 'OrderID');
    const owner = id === undefined ? undefined : attr(id, 'Owner');
    if (owner !== undefined && owner !== '') return owner;
  }
  return undefined;
}

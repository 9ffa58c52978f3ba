/**
 * OrderChangeNotif (NDC 17.2): the airline's notice to the seller that it changed an order. Root
 * `@SequenceNmbr` (the order's version), `Document`, `Party` (`Sender/ORA_Sender/AirlineID`,
 * `Recipient/TravelAgencyRecipient/AgencyID`), `Query` with the `Order` as it now is (as
 * OrderViewRS's: `order.codec.ts`) and `Amendments/Amendment` (`ActionType@Context`,
 * `Remarks/Remark`), then `DataLists` (passengers, flights, segments with their times).
 */
import type { NotifParty, OrderAmendment, OrderChangeNotif } from './servicing.model';
import { decodeDataLists, encodeDataLists } from './data-lists.codec';
import { NdcDecodeError } from './ndc-decode-error';
import { decodeOrder, encodeOrder } from './order.codec';
import { startResponse } from './response-frame';
import {
  addEl,
  attr,
  decodeHeader,
  decodeInt,
  endMessage,
  many,
  one,
  opt,
  optValue,
  parseNdc,
  text,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'OrderChangeNotif';

/** The airline senders of 17.2's Party/Sender choice: each has an `AirlineID`. */
const AIRLINE_SENDERS = ['ORA_Sender', 'POA_Sender', 'MarketingCarrierSender', 'OperatingCarrierSender'];

/**
 * Serialises an OrderChangeNotif (valid against OrderChangeNotif.xsd). Throws a plain `Error` for a
 * party without an `airlineId` or with another `senderKind` (we write `ORA_Sender`), and for an
 * order the schema cannot carry (see `encodeOrder`).
 */
export function encodeOrderChangeNotif(msg: OrderChangeNotif, opts?: EncodeOptions): string {
  const root = startResponse(ROOT, msg, opts);
  if (msg.sequenceNumber !== undefined) root.att('SequenceNmbr', String(msg.sequenceNumber));
  addEl(root, 'Document');
  encodeNotifParty(root, msg.party);
  const query = addEl(root, 'Query');
  encodeOrder(query, msg.order);
  if (msg.amendments.length > 0) {
    const list = addEl(query, 'Amendments');
    for (const a of msg.amendments) encodeAmendment(list, a);
  }
  encodeDataLists(root, msg.dataLists);
  return endMessage(root);
}

/** Parses and decodes an OrderChangeNotif (bare, in a SOAP envelope or an NDC Exchange envelope); throws {@link NdcDecodeError}. */
export function decodeOrderChangeNotif(xml: string | Buffer, opts?: ParseOptions): OrderChangeNotif {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const qPath = `${path}/Query`;
  const query = one(node, 'Query', path);
  const amendments = opt(query, 'Amendments');
  const notif: OrderChangeNotif = {
    ...decodeHeader(node, path),
    party: decodeNotifParty(one(node, 'Party', path), `${path}/Party`),
    order: decodeOrder(one(query, 'Order', qPath), `${qPath}/Order`, undefined),
    amendments:
      amendments === undefined
        ? []
        : many(amendments, 'Amendment').map((a, i) => decodeAmendment(a, `${qPath}/Amendments/Amendment[${i + 1}]`)),
    dataLists: decodeDataLists(opt(node, 'DataLists'), `${path}/DataLists`),
  };
  const seq = attr(node, 'SequenceNmbr');
  if (seq !== undefined) notif.sequenceNumber = decodeInt(seq, `${path}/@SequenceNmbr`);
  return notif;
}

function encodeNotifParty(parent: XMLBuilder, party: NotifParty): void {
  if (party.senderKind !== undefined && party.senderKind !== 'ORA_Sender')
    throw new Error(`OrderChangeNotif Party: only an ORA_Sender can be encoded, not ${party.senderKind}`);
  if (party.airlineId === undefined) throw new Error('OrderChangeNotif Party: ORA_Sender needs an airlineId');
  const el = addEl(parent, 'Party');
  addEl(addEl(addEl(el, 'Sender'), 'ORA_Sender'), 'AirlineID', party.airlineId);
  if (party.agencyId !== undefined)
    addEl(addEl(addEl(el, 'Recipient'), 'TravelAgencyRecipient'), 'AgencyID', party.agencyId);
}

/**
 * Reads Party: the airline of an airline sender (`senderKind` names any sender but ORA_Sender),
 * the AgencyID of a Recipient that has one (TravelAgencyRecipient, AgentUserRecipient).
 */
function decodeNotifParty(node: XNode, path: string): NotifParty {
  const party: NotifParty = {};
  const sender = one(node, 'Sender', path);
  const kind = typeof sender === 'string' ? undefined : Object.keys(sender).find(isElementKey);
  if (kind === undefined) throw new NdcDecodeError('MISSING', `${path}/Sender/ORA_Sender`, 'Sender names no party');
  if (kind !== 'ORA_Sender') party.senderKind = kind;
  if (AIRLINE_SENDERS.includes(kind)) {
    const airline = optValue(one(sender, kind, `${path}/Sender`), 'AirlineID');
    if (airline !== undefined) party.airlineId = airline;
  }
  const recipient = opt(node, 'Recipient');
  if (recipient === undefined || typeof recipient === 'string') return party;
  for (const key of Object.keys(recipient).filter(isElementKey)) {
    const agency = optValue(one(recipient, key, `${path}/Recipient`), 'AgencyID');
    if (agency !== undefined) party.agencyId = agency;
  }
  return party;
}

/** True for a key of the parsed tree that is an NDC child element (not an attribute, text or foreign element). */
function isElementKey(k: string): boolean {
  return !k.startsWith('@') && !k.startsWith('#') && !k.startsWith('{') && !k.includes(':');
}

function encodeAmendment(parent: XMLBuilder, a: OrderAmendment): void {
  const el = addEl(parent, 'Amendment');
  const action = addEl(el, 'ActionType', a.actionType);
  if (a.context !== undefined) action.att('Context', a.context);
  if (a.remarks.length > 0) {
    const remarks = addEl(el, 'Remarks');
    for (const r of a.remarks) addEl(remarks, 'Remark', r);
  }
}

/** An Amendment: `ActionType` (required; its text may be empty in the XSD), its `@Context`, the Remark texts. */
function decodeAmendment(node: XNode, path: string): OrderAmendment {
  const action = one(node, 'ActionType', path);
  const a: OrderAmendment = { actionType: text(action), remarks: [] };
  const context = attr(action, 'Context');
  if (context !== undefined) a.context = context;
  const remarks = opt(node, 'Remarks');
  if (remarks !== undefined) a.remarks = many(remarks, 'Remark').map(text);
  return a;
}

/**
 * SeatAvailabilityRS (NDC 17.2): Success, ShoppingResponseID, the `ALaCarteOffer` pricing the
 * seats (one item per zone), one `SeatMap` per segment (cabin type, layout with exit rows, rows of
 * seats with status, characteristics and the items that price them) and the DataLists; or the
 * error form (`Errors` alone).
 */
import type { SeatAvailabilityRs, SeatMap, SeatMapCabin, SeatMapRow, SeatMapSeat } from './extras.model';
import { decodeALaCarteOffer, encodeALaCarteOffer } from './a-la-carte-offer.codec';
import { decodeDataLists, encodeDataLists } from './data-lists.codec';
import { NdcDecodeError } from './ndc-decode-error';
import { decodeResponseHead, endErrorResponse, startResponse } from './response-frame';
import { decodeShoppingResponseId, encodeShoppingResponseId } from './service-list-rq.codec';
import { startSuccess } from './service-list-rs.codec';
import {
  addEl,
  addOptText,
  addRefs,
  attr,
  decodeInt,
  decodeRefs,
  endMessage,
  many,
  one,
  opt,
  reqText,
  text,
  type EncodeOptions,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

const ROOT = 'SeatAvailabilityRS';

/** Encodes a SeatAvailabilityRS; throws a plain `Error` for a model the schema cannot represent. */
export function encodeSeatAvailabilityRs(msg: SeatAvailabilityRs, opts?: EncodeOptions): string {
  const root = startResponse(ROOT, msg, opts);
  if (msg.kind === 'error') return endErrorResponse(root, msg, ROOT);
  if (msg.seatMaps.length === 0) throw new Error('SeatAvailabilityRS: at least one SeatMap is required');
  startSuccess(root, msg);
  encodeShoppingResponseId(root, msg.shoppingResponseId);
  if (msg.aLaCarteOffer !== undefined) encodeALaCarteOffer(root, msg.aLaCarteOffer);
  for (const map of msg.seatMaps) encodeSeatMap(root, map);
  encodeDataLists(root, msg.dataLists);
  return endMessage(root);
}

/** Decodes a SeatAvailabilityRS (success or error form). Throws {@link NdcDecodeError}. */
export function decodeSeatAvailabilityRs(xml: string | Buffer, opts?: ParseOptions): SeatAvailabilityRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const rs: SeatAvailabilityRs = {
    ...rc,
    kind: 'success',
    seatMaps: many(node, 'SeatMap').map((m, i) => decodeSeatMap(m, `${path}/SeatMap[${i + 1}]`)),
    dataLists: decodeDataLists(opt(node, 'DataLists'), `${path}/DataLists`),
  };
  const sr = decodeShoppingResponseId(node, path);
  if (sr !== undefined) rs.shoppingResponseId = sr;
  const offer = opt(node, 'ALaCarteOffer');
  if (offer !== undefined) rs.aLaCarteOffer = decodeALaCarteOffer(offer, `${path}/ALaCarteOffer`);
  return rs;
}

function encodeSeatMap(parent: XMLBuilder, map: SeatMap): void {
  if (map.cabins.length === 0) throw new Error(`SeatMap ${map.segmentRef}: at least one cabin is required`);
  const el = addEl(parent, 'SeatMap');
  addEl(el, 'SegmentRef', map.segmentRef);
  for (const cabin of map.cabins) encodeCabin(el, cabin);
}

function encodeCabin(parent: XMLBuilder, c: SeatMapCabin): void {
  const el = addEl(parent, 'Cabin');
  if (c.cabinCode !== undefined) {
    const type = addEl(el, 'CabinType');
    addOptText(type, 'Name', c.cabinName);
    addEl(type, 'Code', c.cabinCode);
  }
  if (c.rowRange !== undefined) {
    if (c.columns.length === 0) throw new Error('SeatMap Cabin: a layout needs at least one column');
    const layout = addEl(el, 'CabinLayout');
    for (const col of c.columns) {
      const ce = addEl(layout, 'Columns', col.designator);
      if (col.position !== undefined) ce.att('Position', col.position);
    }
    const rows = addEl(layout, 'Rows');
    addEl(rows, 'First', String(c.rowRange.first));
    addEl(rows, 'Last', String(c.rowRange.last));
    if (c.exitRows.length > 0) {
      const exits = addEl(layout, 'ExitRowPosition');
      for (const r of c.exitRows) {
        const pos = addEl(exits, 'RowPosition');
        addEl(pos, 'First', String(r));
        addEl(pos, 'Last', String(r));
      }
    }
  }
  for (const row of c.rows) encodeRow(el, row);
}

function encodeRow(parent: XMLBuilder, row: SeatMapRow): void {
  if (row.seats.length === 0) throw new Error(`SeatMap Row ${row.number}: at least one seat is required`);
  const el = addEl(parent, 'Row');
  addEl(el, 'Number', String(row.number));
  encodeCodes(el, 'RowCharacteristics', row.characteristics);
  for (const s of row.seats) encodeSeat(el, s);
}

function encodeSeat(parent: XMLBuilder, s: SeatMapSeat): void {
  const el = addEl(parent, 'Seat');
  addEl(el, 'Column', s.column);
  addOptText(el, 'SeatStatus', s.status);
  encodeCodes(el, 'SeatCharacteristics', s.characteristics);
  if (s.offerItemRefs.length > 0) addRefs(el, 'OfferItemRefs', s.offerItemRefs);
}

function encodeCodes(parent: XMLBuilder, name: string, codes: readonly string[]): void {
  if (codes.length === 0) return;
  const el = addEl(parent, name);
  for (const c of codes) addEl(el, 'Code', c);
}

function decodeSeatMap(node: XNode, path: string): SeatMap {
  const seg = text(one(node, 'SegmentRef', path));
  if (seg === '') throw new NdcDecodeError('MISSING', `${path}/SegmentRef`, 'SegmentRef is empty');
  return {
    segmentRef: seg,
    cabins: many(node, 'Cabin').map((c, i) => decodeCabin(c, `${path}/Cabin[${i + 1}]`)),
  };
}

function decodeCabin(node: XNode, path: string): SeatMapCabin {
  const c: SeatMapCabin = {
    columns: [],
    exitRows: [],
    rows: many(node, 'Row').map((r, i) => decodeRow(r, `${path}/Row[${i + 1}]`)),
  };
  const type = opt(node, 'CabinType');
  if (type !== undefined) {
    c.cabinCode = reqText(type, 'Code', `${path}/CabinType`);
    const name = opt(type, 'Name');
    if (name !== undefined && text(name) !== '') c.cabinName = text(name);
  }
  const layout = opt(node, 'CabinLayout');
  if (layout !== undefined) decodeLayout(layout, `${path}/CabinLayout`, c);
  return c;
}

function decodeLayout(node: XNode, path: string, c: SeatMapCabin): void {
  c.columns = many(node, 'Columns').map((col) => {
    const out: { designator: string; position?: string } = { designator: text(col) };
    const pos = attr(col, 'Position');
    if (pos !== undefined) out.position = pos;
    return out;
  });
  const rows = one(node, 'Rows', path);
  c.rowRange = {
    first: decodeInt(text(one(rows, 'First', `${path}/Rows`)), `${path}/Rows/First`),
    last: decodeInt(text(one(rows, 'Last', `${path}/Rows`)), `${path}/Rows/Last`),
  };
  many(node, 'ExitRowPosition').forEach((e, i) => {
    many(e, 'RowPosition').forEach((p, j) => {
      const pPath = `${path}/ExitRowPosition[${i + 1}]/RowPosition[${j + 1}]`;
      const first = decodeInt(text(one(p, 'First', pPath)), `${pPath}/First`);
      const last = decodeInt(text(one(p, 'Last', pPath)), `${pPath}/Last`);
      for (let r = first; r <= last && r - first < 1000; r++) c.exitRows.push(r);
    });
  });
}

function decodeRow(node: XNode, path: string): SeatMapRow {
  return {
    number: decodeInt(text(one(node, 'Number', path)), `${path}/Number`),
    characteristics: decodeCodes(node, 'RowCharacteristics'),
    seats: many(node, 'Seat').map((s, i) => decodeSeat(s, `${path}/Seat[${i + 1}]`)),
  };
}

function decodeSeat(node: XNode, path: string): SeatMapSeat {
  const column = text(one(node, 'Column', path));
  if (column === '') throw new NdcDecodeError('MISSING', `${path}/Column`, 'Column is empty');
  const s: SeatMapSeat = {
    column,
    characteristics: decodeCodes(node, 'SeatCharacteristics'),
    offerItemRefs: decodeRefs(text(opt(node, 'OfferItemRefs') ?? '')),
  };
  const status = opt(node, 'SeatStatus');
  if (status !== undefined && text(status) !== '') s.status = text(status);
  return s;
}

function decodeCodes(node: XNode, name: string): string[] {
  const el = opt(node, name);
  return el === undefined
    ? []
    : many(el, 'Code')
        .map(text)
        .filter((c) => c !== '');
}

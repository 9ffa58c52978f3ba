/** OrderRetrieveRQ: Query/Filters/OrderID with the Owner attribute. */
import type { OrderRetrieveRq } from './ndc.model';
import { decodeRequestCommon, encodeRequestCommon } from './common.codec';
import { addEl, endMessage, one, opt, parseNdc, reqAttr, reqText, type ParseOptions, type EncodeOptions } from './xml';

const ROOT = 'OrderRetrieveRQ';

/** Serialises an OrderRetrieveRQ (valid against OrderRetrieveRQ.xsd). */
export function encodeOrderRetrieveRq(rq: OrderRetrieveRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  if (rq.orderId === undefined || rq.owner === undefined)
    throw new Error('OrderRetrieveRQ: orderId and owner are required to encode');
  addEl(addEl(addEl(root, 'Query'), 'Filters'), 'OrderID', rq.orderId).att('Owner', rq.owner);
  return endMessage(root);
}

/** Parses and decodes an OrderRetrieveRQ; throws `NdcDecodeError`. */
export function decodeOrderRetrieveRq(xml: string | Buffer, opts?: ParseOptions): OrderRetrieveRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const queryPath = `${path}/Query`;
  const filtersPath = `${queryPath}/Filters`;
  const filters = one(one(node, 'Query', path), 'Filters', queryPath);
  const rq: OrderRetrieveRq = decodeRequestCommon(node, path);
  // OrderID is optional in the XSD (a query by other filters); when present its Owner is required.
  const orderId = opt(filters, 'OrderID');
  if (orderId !== undefined) {
    rq.orderId = reqText(filters, 'OrderID', filtersPath);
    rq.owner = reqAttr(orderId, 'Owner', `${filtersPath}/OrderID`);
  }
  return rq;
}

/** OrderRetrieveRQ: Query/Filters/OrderID with the Owner attribute. */
import type { OrderRetrieveRq } from './ndc.model';
import { decodeRequestCommon, encodeRequestCommon } from './common.codec';
import { addEl, endMessage, one, parseNdc, reqAttr, reqText, type ParseOptions, type EncodeOptions } from './xml';

const ROOT = 'OrderRetrieveRQ';

/** Serialises an OrderRetrieveRQ (valid against OrderRetrieveRQ.xsd). */
export function encodeOrderRetrieveRq(rq: OrderRetrieveRq, opts?: EncodeOptions): string {
  const root = encodeRequestCommon(ROOT, rq, opts);
  addEl(addEl(addEl(root, 'Query'), 'Filters'), 'OrderID', rq.orderId).att('Owner', rq.owner);
  return endMessage(root);
}

/** Parses and decodes an OrderRetrieveRQ; throws `NdcDecodeError`. */
export function decodeOrderRetrieveRq(xml: string | Buffer, opts?: ParseOptions): OrderRetrieveRq {
  const { node, path } = parseNdc(xml, ROOT, opts);
  const queryPath = `${path}/Query`;
  const filtersPath = `${queryPath}/Filters`;
  const filters = one(one(node, 'Query', path), 'Filters', queryPath);
  return {
    ...decodeRequestCommon(node, path),
    orderId: reqText(filters, 'OrderID', filtersPath),
    owner: reqAttr(one(filters, 'OrderID', filtersPath), 'Owner', `${filtersPath}/OrderID`),
  };
}

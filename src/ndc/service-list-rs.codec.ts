/**
 * ServiceListRS (NDC 17.2): Success, ShoppingResponseID, the `ALaCarteOffer` of the services on
 * sale and the DataLists its references point to (passengers, segments, price classes, service
 * definitions); or the error form (`Errors` alone).
 */
import type { ServiceListRs } from './extras.model';
import { decodeALaCarteOffer, encodeALaCarteOffer } from './a-la-carte-offer.codec';
import { encodeWarnings } from './common.codec';
import { decodeDataLists, encodeDataLists } from './data-lists.codec';
import { decodeResponseHead, endErrorResponse, startResponse } from './response-frame';
import { decodeShoppingResponseId, encodeShoppingResponseId } from './service-list-rq.codec';
import { addEl, endMessage, opt, type EncodeOptions, type ParseOptions, type XMLBuilder } from './xml';

const ROOT = 'ServiceListRS';

/** Encodes a ServiceListRS; throws a plain `Error` for a model the schema cannot represent. */
export function encodeServiceListRs(msg: ServiceListRs, opts?: EncodeOptions): string {
  const root = startResponse(ROOT, msg, opts);
  if (msg.kind === 'error') return endErrorResponse(root, msg, ROOT);
  startSuccess(root, msg);
  encodeShoppingResponseId(root, msg.shoppingResponseId);
  if (msg.aLaCarteOffer !== undefined) encodeALaCarteOffer(root, msg.aLaCarteOffer);
  encodeDataLists(root, msg.dataLists);
  return endMessage(root);
}

/** Decodes a ServiceListRS (success or error form). Throws {@link NdcDecodeError}. */
export function decodeServiceListRs(xml: string | Buffer, opts?: ParseOptions): ServiceListRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const rs: ServiceListRs = {
    ...rc,
    kind: 'success',
    dataLists: decodeDataLists(opt(node, 'DataLists'), `${path}/DataLists`),
  };
  const sr = decodeShoppingResponseId(node, path);
  if (sr !== undefined) rs.shoppingResponseId = sr;
  const offer = opt(node, 'ALaCarteOffer');
  if (offer !== undefined) rs.aLaCarteOffer = decodeALaCarteOffer(offer, `${path}/ALaCarteOffer`);
  return rs;
}

/** `Document`, `Success` and the warnings of a success form. */
export function startSuccess(root: XMLBuilder, msg: { warnings?: ServiceListRs['warnings'] }): void {
  addEl(root, 'Document');
  addEl(root, 'Success');
  if (msg.warnings?.length) encodeWarnings(root, msg.warnings);
}

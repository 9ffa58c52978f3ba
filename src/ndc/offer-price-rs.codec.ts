/**
 * OfferPriceRS (NDC 17.2): Success, ShoppingResponseID, the one PricedOffer
 * (both directions of a round trip, items per passenger and direction, the
 * optional CCF2 card-surcharge item), DataLists and Metadata; or the error
 * form (`Errors` directly under the root, no `Document`).
 */
import type { OfferPriceRs, PricedOffer } from './ndc.model';
import { encodeWarnings } from './common.codec';
import {
  decodeFlightsOverview,
  decodeOfferItem,
  encodeDetailCurrencyPrice,
  encodeFlightsOverview,
  encodeOfferItem,
} from './air-shopping-rs.codec';
import { decodeResponseHead, endErrorResponse, startResponse } from './response-frame';
import { decodeDataLists, encodeDataLists } from './data-lists.codec';
import { decodeMetadata, encodeMetadata, messageCurrency } from './metadata.codec';
import { decodePrice } from './price.codec';
import {
  addEl,
  endMessage,
  many,
  one,
  opt,
  reqAttr,
  reqText,
  type ParseOptions,
  type XMLBuilder,
  type XNode,
  type EncodeOptions,
  type MessageCurrency,
} from './xml';

const ROOT = 'OfferPriceRS';

function encodePricedOffer(parent: XMLBuilder, o: PricedOffer): void {
  const el = addEl(parent, 'PricedOffer').att('OfferID', o.offerId).att('Owner', o.owner);
  if (o.total === undefined)
    throw new Error(`PricedOffer ${o.offerId}: only a price with a money total can be encoded`);
  encodeDetailCurrencyPrice(addEl(el, 'TotalPrice'), o.total, o.taxes);
  encodeFlightsOverview(el, o.flightsOverview);
  if (o.offerItems.length === 0) throw new Error(`PricedOffer ${o.offerId}: at least one offer item is required`);
  for (const item of o.offerItems) encodeOfferItem(el, item, 'detail');
}

/** The PricedOffer: `TotalPrice` (optional in the XSD) in any price form, FlightsOverview, items. */
function decodePricedOffer(node: XNode, path: string, currency: MessageCurrency): PricedOffer {
  const o: PricedOffer = {
    offerId: reqAttr(node, 'OfferID', path),
    owner: reqAttr(node, 'Owner', path),
    flightsOverview: decodeFlightsOverview(node, path),
    offerItems: [],
  };
  const tp = opt(node, 'TotalPrice');
  if (tp !== undefined) {
    const { amount, taxes, other } = decodePrice(tp, `${path}/TotalPrice`, currency);
    if (amount !== undefined) o.total = amount;
    if (taxes !== undefined) o.taxes = taxes;
    if (other !== undefined) o.otherPrice = other;
  }
  o.offerItems = many(node, 'OfferItem').map((it, i) => decodeOfferItem(it, `${path}/OfferItem[${i + 1}]`, currency));
  return o;
}

/**
 * Encodes an OfferPriceRS (item totals as `TotalAmount/DetailCurrencyPrice`
 * plus `BaseAmount`). Throws a plain `Error` for a model the schema cannot represent.
 */
export function encodeOfferPriceRs(msg: OfferPriceRs, opts?: EncodeOptions): string {
  const root = startResponse(ROOT, msg, opts);
  if (msg.kind === 'error') return endErrorResponse(root, msg, ROOT);
  addEl(root, 'Document');
  addEl(root, 'Success');
  if (msg.warnings?.length) encodeWarnings(root, msg.warnings);
  if (msg.shoppingResponseId !== undefined)
    addEl(addEl(root, 'ShoppingResponseID'), 'ResponseID', msg.shoppingResponseId);
  encodePricedOffer(root, msg.pricedOffer);
  encodeDataLists(root, msg.dataLists);
  encodeMetadata(root, msg.metadata);
  return endMessage(root);
}

/** Decodes an OfferPriceRS (success or error form). Throws {@link NdcDecodeError}. */
export function decodeOfferPriceRs(xml: string | Buffer, opts?: ParseOptions): OfferPriceRs {
  const head = decodeResponseHead(xml, ROOT, opts);
  if (head.kind === 'error') return head;
  const { node, path, rc } = head;
  const metadata = decodeMetadata(opt(node, 'Metadata'), `${path}/Metadata`);
  const rs: OfferPriceRs = {
    ...rc,
    kind: 'success',
    pricedOffer: decodePricedOffer(one(node, 'PricedOffer', path), `${path}/PricedOffer`, messageCurrency(metadata)),
    dataLists: decodeDataLists(opt(node, 'DataLists'), `${path}/DataLists`),
    metadata,
  };
  // Optional in the XSD.
  const sr = opt(node, 'ShoppingResponseID');
  if (sr !== undefined) rs.shoppingResponseId = reqText(sr, 'ResponseID', `${path}/ShoppingResponseID`);
  return rs;
}

/**
 * An order's version on the wire: the OrderViewRS root's `SequenceNmbr` (17.2's
 * IATA_PayloadStdAttributes, `xsd:nonNegativeInteger`; the OrderChangeNotif carries the order's
 * version in the same attribute). The codec's OrderViewRS model has no field for it, so the
 * airline writes the attribute into the encoded root element here.
 */
import { encodeOrderViewRs, type EncodeOptions } from '../../ndc';
import type { OrderViewRs } from '../../ndc/ndc.model';

/** An OrderViewRS model with the order's version (absent: none written, e.g. several orders or an error). */
export type VersionedOrderView = OrderViewRs & { sequenceNumber?: number };

/** `xml` with `SequenceNmbr="<sequence>"` on its first `root` element (unchanged when `sequence` is undefined). */
export function withSequenceNumber(xml: string, root: string, sequence: number | undefined): string {
  if (sequence === undefined) return xml;
  if (!Number.isSafeInteger(sequence) || sequence < 0)
    throw new Error(`SequenceNmbr ${sequence} is not a non-negative integer`);
  const start = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${root}(?=[\\s>/])`).exec(xml);
  if (!start) throw new Error(`no ${root} element to write SequenceNmbr on`);
  const at = start.index + start[0].length;
  return `${xml.slice(0, at)} SequenceNmbr="${sequence}"${xml.slice(at)}`;
}

/** Encodes an OrderViewRS with the order's version as its root's `SequenceNmbr`. */
export function encodeVersionedOrderView(model: VersionedOrderView, opts: EncodeOptions): string {
  return withSequenceNumber(encodeOrderViewRs(model, opts), 'OrderViewRS', model.sequenceNumber);
}

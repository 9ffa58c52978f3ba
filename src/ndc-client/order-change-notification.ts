/**
 * Reading an OrderChangeNotif that an airline pushes to the orchestrator over HTTP (its
 * notification endpoint), in whichever binding the airline speaks: the NDC document bare, in a
 * SOAP 1.1/1.2 envelope, or as the payload of an NDC Exchange envelope (CDATA, escaped text or
 * inline), read with the airline's extension and document namespaces as its answers are.
 */
import {
  decodeOrderChangeNotif,
  detectBinding,
  ndcDocument,
  type NdcBinding,
  type OrderChangeNotif,
  type ParseOptions,
} from '../ndc';
import type { NdcClientConfig } from './ndc-client';

/** How to read a notification: the airline profile's client settings (`profile.client` fits), and a size limit. */
export interface NotificationReadOptions extends Pick<NdcClientConfig, 'extensionNamespace' | 'documentNamespace'> {
  /** Largest body accepted, bytes. Default the codec's `DEFAULT_MAX_BYTES` (5 MiB). */
  maxBytes?: number;
}

/** A notification read from an HTTP body. */
export interface ReceivedOrderChangeNotif {
  notif: OrderChangeNotif;
  /** The binding it came in (answer in the same one). */
  binding: NdcBinding;
  /** The NDC document itself, out of its envelope (and provider wrapper): what to keep. */
  xml: string;
}

/**
 * Decodes the body of a pushed OrderChangeNotif. Throws the codec's `NdcDecodeError` (`code` and
 * `path` say what is wrong, e.g. `WRONG_ROOT`, `MISSING` at `/OrderChangeNotif/Query/Order`) for
 * anything that is not one: answer it with a 400 and an NDC error naming that path.
 */
export function readOrderChangeNotif(
  body: string | Buffer,
  options: NotificationReadOptions = {},
): ReceivedOrderChangeNotif {
  const reading: ParseOptions = {};
  if (options.maxBytes !== undefined) reading.maxBytes = options.maxBytes;
  if (options.extensionNamespace !== undefined) reading.extensionNamespace = options.extensionNamespace;
  if (options.documentNamespace !== undefined) reading.documentNamespace = options.documentNamespace;
  const notif = decodeOrderChangeNotif(body, reading);
  return { notif, binding: detectBinding(body), xml: ndcDocument(body, reading, ['OrderChangeNotif']) };
}

/**
 * What identifies one change of one order, for a receiver to drop a notification it already has:
 * `<owner>/<orderId>/<sequence>` with the root's `SequenceNmbr` (the order's version, as the
 * embedded airline writes it), else its `TransactionIdentifier`; undefined when the notification
 * has neither (then it cannot be told from a repeat by its ids).
 */
export function orderChangeNotifKey(notif: OrderChangeNotif): string | undefined {
  const change = notif.sequenceNumber !== undefined ? String(notif.sequenceNumber) : notif.transactionIdentifier;
  return change === undefined ? undefined : `${notif.order.owner}/${notif.order.orderId}/${change}`;
}

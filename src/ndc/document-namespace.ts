/**
 * NDC documents that arrive outside the NDC namespace. Some partners deliver their NDC 17.2
 * messages through a provider that puts the NDC root inside a wrapper of its own whose default
 * namespace the NDC elements inherit (American Airlines' responses through its provider): the
 * elements are then in the provider's namespace, not in {@link NDC_NS}. Such documents are
 * refused unless the caller names the namespace they arrive in (`ParseOptions.documentNamespace`,
 * which an airline profile sets); then the wrapper is looked through and the elements of that
 * namespace are read as NDC elements.
 */
import { NDC_NS } from './namespaces';
import { findElement, inlineElement, scanRoot, localName } from './xml-scan';

/** `documentNamespace` value that accepts a known NDC message root in whatever namespace it is (or none). */
export const ANY_NAMESPACE = '*';

/** The root elements of the NDC 17.2 messages (the vendored schemas' roots): what a wrapper is looked through for. */
export const NDC_MESSAGE_ROOTS: readonly string[] = [
  'AirShoppingRQ',
  'AirShoppingRS',
  'CustomerInputRQ',
  'CustomerInputRS',
  'OfferPriceRQ',
  'OfferPriceRS',
  'OrderCancelRQ',
  'OrderCancelRS',
  'OrderChangeNotif',
  'OrderChangeRQ',
  'OrderCreateRQ',
  'OrderReshopRQ',
  'OrderReshopRS',
  'OrderRetrieveRQ',
  'OrderViewRS',
  'SeatAvailabilityRQ',
  'SeatAvailabilityRS',
  'ServiceListRQ',
  'ServiceListRS',
];
const KNOWN_ROOTS: ReadonlySet<string> = new Set(NDC_MESSAGE_ROOTS);
/** What a document in the NDC namespace reads as NDC: that namespace alone. */
const DEFAULT_NDC_NAMESPACES: ReadonlySet<string> = new Set([NDC_NS]);

/**
 * The NDC message of a document whose root is a provider's wrapper: the first element (document
 * order) named as one of `expected`, else the first named as any NDC message root, as a document
 * of its own with the namespaces it inherits declared on it (so it keeps the wrapper's default
 * namespace). `text` itself when its root is already an NDC message root (or `expected`), or
 * when nothing inside is. `text` must be well-formed (checked before).
 */
export function lookThroughWrapper(text: string, expected: readonly string[] = []): string {
  const root = scanRoot(text);
  if (root === undefined) return text;
  const rootName = localName(root.qname);
  if (KNOWN_ROOTS.has(rootName) || expected.includes(rootName)) return text;
  const found =
    findElement(text, (local) => expected.includes(local)) ?? findElement(text, (local) => KNOWN_ROOTS.has(local));
  return found === undefined ? text : inlineElement(text, found.tag, found.scope);
}

/**
 * The namespaces whose elements are read as NDC elements in a document whose root is in `rootNs`
 * (undefined: no namespace), or undefined when that root is refused: {@link NDC_NS} always;
 * `documentNamespace` too when the root is in it; the root's own namespace with
 * {@link ANY_NAMESPACE}.
 */
export function ndcNamespacesOf(
  rootNs: string | undefined,
  documentNamespace: string | undefined,
): ReadonlySet<string> | undefined {
  if (rootNs === NDC_NS) return DEFAULT_NDC_NAMESPACES;
  if (documentNamespace === ANY_NAMESPACE) return new Set([NDC_NS, rootNs ?? '']);
  if (documentNamespace !== undefined && rootNs === documentNamespace) return new Set([NDC_NS, rootNs]);
  return undefined;
}

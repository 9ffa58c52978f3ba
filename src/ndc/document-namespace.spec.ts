import { decodeError, inProviderSoapBody, PROVIDER_NS, providerWrapped } from '../../test/support/ndc';
import { expectValidXsd } from '../../test/support/xsd';
import { decodeAirShoppingRs, encodeAirShoppingRs } from './air-shopping-rs.codec';
import { ANY_NAMESPACE, lookThroughWrapper } from './document-namespace';
import { dayRoundTripRs } from './fixtures/air-shopping-rs.fixtures';
import { orderViewRs } from './fixtures/order-view-rs.fixtures';
import { NDC_NS } from './namespaces';
import { decodeOrderViewRs, encodeOrderViewRs } from './order-view-rs.codec';
import { NDC_BINDINGS, wrapInBinding } from './soap';
import { ndcDocument, ndcRootName } from './xml-read';

const provider = { documentNamespace: PROVIDER_NS };
const withoutDeclaration = (xml: string) => xml.replace(/^<\?xml[^?]*\?>/, '');

describe('documents in a provider namespace (documentNamespace)', () => {
  it('a provider-wrapped OrderViewRS is refused by default with the errors of before: WRONG_ROOT for the wrapper, WRONG_NAMESPACE in a SOAP Body', () => {
    const wrapped = decodeError(() => decodeOrderViewRs(providerWrapped(encodeOrderViewRs(orderViewRs))));
    expect([wrapped.code, wrapped.path, wrapped.message]).toEqual([
      'WRONG_ROOT',
      '/ProviderResponse',
      'expected root OrderViewRS, got ProviderResponse at /ProviderResponse',
    ]);
    const inBody = decodeError(() => decodeOrderViewRs(inProviderSoapBody(encodeOrderViewRs(orderViewRs))));
    expect([inBody.code, inBody.path, inBody.message]).toEqual([
      'WRONG_NAMESPACE',
      '/OrderViewRS',
      `root must be in namespace ${NDC_NS}, got ${PROVIDER_NS} at /OrderViewRS`,
    ]);
  });

  it('decodes them to the same model as the EDIST document when the namespace is named, in every binding', () => {
    const edist = decodeOrderViewRs(encodeOrderViewRs(orderViewRs));
    expect(decodeOrderViewRs(inProviderSoapBody(encodeOrderViewRs(orderViewRs)), provider)).toStrictEqual(edist);
    const shopping = decodeAirShoppingRs(encodeAirShoppingRs(dayRoundTripRs));
    for (const binding of NDC_BINDINGS) {
      const order = wrapInBinding(providerWrapped(encodeOrderViewRs(orderViewRs)), binding);
      expect([binding, decodeOrderViewRs(order, provider)]).toStrictEqual([binding, edist]);
      // Extension elements (ns2:Journey, ns2:City) are read inside the provider's namespace too.
      const shop = wrapInBinding(providerWrapped(encodeAirShoppingRs(dayRoundTripRs)), binding);
      expect([binding, decodeAirShoppingRs(Buffer.from(shop), provider)]).toStrictEqual([binding, shopping]);
    }
  });

  it('names the root and gives the NDC document through the wrapper, keeping the namespace it arrived in', () => {
    const xml = wrapInBinding(providerWrapped(encodeOrderViewRs(orderViewRs)), 'soap12');
    expect(ndcRootName(xml)).toBe('ProviderResponse');
    expect(ndcRootName(xml, provider)).toBe('OrderViewRS');
    const doc = ndcDocument(xml, provider);
    // The namespaces in scope are declared on it: the SOAP envelope's and the provider's default one.
    expect(/^<OrderViewRS [^>]*>/.exec(doc)?.[0]).toContain(` xmlns="${PROVIDER_NS}" xmlns:ns2=`);
    expect(doc.endsWith('</OrderViewRS>')).toBe(true);
    // The same document in the NDC namespace is the message as IATA's schema has it.
    expectValidXsd(doc.replace(`xmlns="${PROVIDER_NS}"`, `xmlns="${NDC_NS}"`), 'OrderViewRS');
  });

  it('refuses a document in another namespace than the one named; ANY_NAMESPACE takes a known root in any namespace', () => {
    const elsewhere = providerWrapped(encodeOrderViewRs(orderViewRs), 'urn:example:other-provider');
    const refused = decodeError(() => decodeOrderViewRs(elsewhere, provider));
    expect([refused.code, refused.message]).toEqual([
      'WRONG_NAMESPACE',
      `root must be in namespace ${NDC_NS}, got urn:example:other-provider at /OrderViewRS`,
    ]);
    const edist = decodeOrderViewRs(encodeOrderViewRs(orderViewRs));
    expect(decodeOrderViewRs(elsewhere, { documentNamespace: ANY_NAMESPACE })).toStrictEqual(edist);
    const noNamespace = withoutDeclaration(encodeOrderViewRs(orderViewRs)).replace(` xmlns="${NDC_NS}"`, '');
    expect(decodeError(() => decodeOrderViewRs(noNamespace)).code).toBe('WRONG_NAMESPACE');
    expect(decodeOrderViewRs(noNamespace, { documentNamespace: ANY_NAMESPACE })).toStrictEqual(edist);
    // Still the NDC namespace's own documents, and a wrong message is still WRONG_ROOT.
    expect(decodeOrderViewRs(encodeOrderViewRs(orderViewRs), provider)).toStrictEqual(edist);
    expect(decodeError(() => decodeAirShoppingRs(providerWrapped(encodeOrderViewRs(orderViewRs)), provider)).code).toBe(
      'WRONG_ROOT',
    );
  });

  it('looks through a wrapper for the expected root first (an echoed request before the answer), else the first NDC root', () => {
    const answer = `<AirShoppingRS Version="17.2"/>`;
    const doc = `<P xmlns="${PROVIDER_NS}"><Echo><AirShoppingRQ Version="17.2"/></Echo><x:Q xmlns:x="urn:q">${answer}</x:Q></P>`;
    expect(lookThroughWrapper(doc, ['AirShoppingRS'])).toBe(
      `<AirShoppingRS xmlns="${PROVIDER_NS}" xmlns:x="urn:q" Version="17.2"/>`,
    );
    expect(lookThroughWrapper(doc)).toBe(`<AirShoppingRQ xmlns="${PROVIDER_NS}" Version="17.2"/>`);
    expect(lookThroughWrapper(`<P xmlns="${PROVIDER_NS}"><Q/></P>`)).toBe(`<P xmlns="${PROVIDER_NS}"><Q/></P>`);
  });
});

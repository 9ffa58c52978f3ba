import { loadNdcClientConfig } from './ndc-client.config';

describe('loadNdcClientConfig', () => {
  it("defaults to the plain binding and the codec's extension namespace", () => {
    const config = loadNdcClientConfig({});
    expect(config.binding).toBe('plain');
    expect(config.extensionNamespace).toBeUndefined();
  });

  it('reads AIRLINE_BINDING and AIRLINE_EXTENSION_NAMESPACE, failing fast naming the variable', () => {
    expect(loadNdcClientConfig({ AIRLINE_BINDING: 'soap11', AIRLINE_EXTENSION_NAMESPACE: 'urn:x:ext' })).toMatchObject({
      binding: 'soap11',
      extensionNamespace: 'urn:x:ext',
    });
    expect(() => loadNdcClientConfig({ AIRLINE_BINDING: 'soap' })).toThrow(
      'AIRLINE_BINDING: must be one of plain, soap11, soap12, ndcexchange, got "soap"',
    );
    expect(() => loadNdcClientConfig({ AIRLINE_EXTENSION_NAMESPACE: 'not a uri' })).toThrow(
      'AIRLINE_EXTENSION_NAMESPACE: must be an absolute URI, got "not a uri"',
    );
  });

  it('reads the NDC Exchange settings (AIRLINE_EXCHANGE_NAMESPACE, _SELLER_ID, _RECIPIENT), failing fast on a bad namespace', () => {
    const config = loadNdcClientConfig({
      AIRLINE_BINDING: 'ndcexchange',
      AIRLINE_EXCHANGE_NAMESPACE: 'urn:example:hub:2',
      AIRLINE_EXCHANGE_SELLER_ID: 'TA-1',
      AIRLINE_EXCHANGE_RECIPIENT: 'ZZ',
    });
    expect([config.binding, config.exchange]).toEqual([
      'ndcexchange',
      { namespace: 'urn:example:hub:2', sellerId: 'TA-1', recipient: 'ZZ' },
    ]);
    expect(loadNdcClientConfig({}).exchange).toBeUndefined();
    expect(() => loadNdcClientConfig({ AIRLINE_EXCHANGE_NAMESPACE: 'not a uri' })).toThrow(
      'AIRLINE_EXCHANGE_NAMESPACE: must be an absolute URI, got "not a uri"',
    );
  });
});

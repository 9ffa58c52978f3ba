import { acceptsGzip, isAcceptedContentType, negotiateXml } from './media-type';
import { formatLocalTimestamp } from './timestamp';

describe('media types', () => {
  const vendor = 'ndcsaga';
  const ndc = 'application/vnd.ndcsaga.ndc.v17.2+xml';

  it.each([
    [ndc, true],
    [`${ndc};charset=UTF-8`, true],
    [`${ndc}; charset="utf-8"`, true],
    ['Application/XML', true],
    ['text/xml;charset=utf8', true],
    ['text/xml;charset=ISO-8859-1', false],
    ['application/vnd.other.ndc.v17.2+xml', false],
    ['application/json', false],
    [undefined, false],
    ['garbage', false],
  ])('Content-Type %s accepted: %s', (header, ok) => {
    expect(isAcceptedContentType(header, vendor)).toBe(ok);
  });

  it.each([
    [undefined, ndc],
    ['', ndc],
    ['*/*', ndc],
    ['application/*', ndc],
    ['text/*', 'text/xml'],
    ['application/xml', 'application/xml'],
    ['application/json, text/xml;q=0.1', 'text/xml'],
    [`${ndc};q=0, application/xml`, 'application/xml'],
    ['*/*;q=0', undefined],
    ['application/json', undefined],
  ])('Accept %s gives %s', (accept, type) => {
    expect(negotiateXml(accept, vendor)).toBe(type);
  });

  it.each([
    [undefined, false],
    ['gzip', true],
    ['deflate, gzip;q=0.5', true],
    ['gzip;q=0', false],
    ['*', true],
    ['*;q=0', false],
    ['br', false],
  ])('Accept-Encoding %s allows gzip: %s', (header, ok) => {
    expect(acceptsGzip(header)).toBe(ok);
  });
});

describe('formatLocalTimestamp', () => {
  function at(iso: string, offsetMinutes: number): Date {
    const d = new Date(iso);
    jest.spyOn(d, 'getTimezoneOffset').mockReturnValue(-offsetMinutes);
    return d;
  }

  it.each([
    ['2026-11-21T06:01:02.345Z', 0, '2026-11-21T06:01:02.345+00:00'],
    ['2026-11-21T06:01:02.005Z', 60, '2026-11-21T07:01:02.005+01:00'],
    ['2026-11-21T02:00:00.000Z', -300, '2026-11-20T21:00:00.000-05:00'],
    ['2026-11-21T06:00:00.000Z', 330, '2026-11-21T11:30:00.000+05:30'],
  ])('%s at offset %i minutes is %s', (iso, offset, expected) => {
    expect(formatLocalTimestamp(at(iso, offset))).toBe(expected);
  });
});

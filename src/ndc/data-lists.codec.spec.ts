import { expectValidXsd } from '../../test/support/xsd';
import { decodeDataLists, encodeDataLists } from './data-lists.codec';
import { baggageAllowances, serviceDefinitions } from './fixtures/rs-data.fixtures';
import { orderViewRs } from './fixtures/order-view-rs.fixtures';
import type { DataLists, OrderViewRs } from './ndc.model';
import { decodeOrderViewRs, encodeOrderViewRs } from './order-view-rs.codec';
import { endMessage, opt, parseNdc, startMessage } from './xml';

type Ok = Extract<OrderViewRs, { kind: 'success' }>;
const ok = orderViewRs as Ok;

/** Encodes `dl` under a bare root and reads it back. */
function viaXml(dl: DataLists): { xml: string; back: DataLists } {
  const root = startMessage('OrderViewRS', { target: 'Test', version: '17.2', timeStamp: '2026-11-21T06:00:00Z' });
  encodeDataLists(root, dl);
  const xml = endMessage(root);
  const { node, path } = parseNdc(xml, 'OrderViewRS');
  return { xml, back: decodeDataLists(opt(node, 'DataLists'), `${path}/DataLists`) };
}

describe('DataLists codec', () => {
  it('writes no DataLists element when every list is absent or empty, and reads that back as {}', () => {
    const { xml, back } = viaXml({ passengers: [], flights: [] });
    expect(xml).not.toContain('DataLists');
    expect(back).toEqual({});
    expect(decodeDataLists(undefined, '/X/DataLists')).toEqual({});
  });

  it('decodes single entries as arrays', () => {
    const { back } = viaXml({
      baggageAllowances: [
        {
          ...baggageAllowances[0],
          pieceAllowance: { ...baggageAllowances[0].pieceAllowance!, measurements: [{ quantity: 1 }] },
        },
      ],
      serviceDefinitions: [{ ...serviceDefinitions[1], descriptions: ['one'] }],
      flights: [{ flightKey: 'FL1', segmentRefs: ['S1'] }],
    });
    expect(back.baggageAllowances?.[0].pieceAllowance?.measurements).toEqual([{ quantity: 1 }]);
    expect(back.serviceDefinitions?.[0].descriptions).toEqual(['one']);
    expect(back.flights).toEqual([{ flightKey: 'FL1', segmentRefs: ['S1'] }]);
  });

  it('round-trips every list of an OrderViewRS with baggage and price classes added, valid against the XSD', () => {
    const msg: Ok = {
      ...ok,
      dataLists: {
        ...ok.dataLists,
        baggageAllowances,
        priceClasses: [
          {
            priceClassId: 'PC__LIGHT',
            name: 'Light',
            code: 'LIGHT',
            classesOfService: [{ segmentRefs: ['SEG__LHR_JFK_0101'], code: 'Q', seatsLeft: 0 }],
          },
        ],
        serviceDefinitions,
      },
    };
    const xml = encodeOrderViewRs(msg);
    expectValidXsd(xml, 'OrderViewRS');
    expect(decodeOrderViewRs(xml)).toEqual(msg);
    expect(xml).toContain(
      '<PieceMeasurements Quantity="1"><PieceWeightAllowance><MaximumWeight><Value>32.5</Value><UOM>K</UOM></MaximumWeight><ApplicableBag>YN2</ApplicableBag></PieceWeightAllowance></PieceMeasurements>',
    );
    expect(xml).toContain('<ClassOfService refs="SEG__LHR_JFK_0101"><Code SeatsLeft="0">Q</Code></ClassOfService>');
  });

  it('refuses what the XSD cannot carry', () => {
    expect(() => viaXml({ serviceDefinitions: [{ ...serviceDefinitions[3], bundleRefs: ['SD__XST-1'] }] })).toThrow(
      'exclusive',
    );
    expect(() => viaXml({ serviceDefinitions: [{ ...serviceDefinitions[1], descriptions: [] }] })).toThrow(
      'at least one description',
    );
    expect(() =>
      viaXml({
        baggageAllowances: [
          {
            baggageAllowanceId: 'B1',
            category: 'Checked',
            pieceAllowance: {
              applicableParty: 'Traveler',
              totalQuantity: 1,
              measurements: [{ quantity: 1, applicableBag: 'YN1' }],
            },
          },
        ],
      }),
    ).toThrow('applicableBag needs maximumWeight');
  });

  it('names the path of a flight segment without its SegmentKey', () => {
    const xml = encodeOrderViewRs(ok).replace('<FlightSegment SegmentKey="SEG__JFK_DUB_0160">', '<FlightSegment>');
    expect(() => decodeOrderViewRs(xml)).toThrow(
      expect.objectContaining({
        code: 'MISSING',
        path: '/OrderViewRS/Response/DataLists/FlightSegmentList/FlightSegment[2]/@SegmentKey',
      }),
    );
  });
});

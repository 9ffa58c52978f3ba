import type { Context } from '@temporalio/activity';
import { airlineLogAttributes } from './worker';

describe('airline activity interceptor', () => {
  it("adds the airline's code to every log line's and metric's attributes of its activities", () => {
    const { outbound } = airlineLogAttributes('YY')({} as Context);
    const next = () => ({ taskQueue: 'ndc-saga-airline-YY', activityType: 'shop' });
    expect(outbound?.getLogAttributes?.({}, next)).toEqual({
      taskQueue: 'ndc-saga-airline-YY',
      activityType: 'shop',
      airline: 'YY',
    });
    expect(outbound?.getMetricTags?.({}, () => ({ activity_type: 'shop' }))).toEqual({
      activity_type: 'shop',
      airline: 'YY',
    });
  });
});

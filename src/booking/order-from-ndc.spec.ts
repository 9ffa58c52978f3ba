import { retimeNotif } from '../ndc/fixtures/order-change-notif.fixtures';
import { summaryOfOrder } from './order-from-ndc';

describe('summaryOfOrder', () => {
  const ACTION_BY = '2027-03-03T09:30:00.000Z';

  it("reads the airline's deadline of a waiting schedule change as actionBy, and none once the order no longer waits", () => {
    const waiting = { ...retimeNotif.order, scheduleChangeActionBy: ACTION_BY };
    const summary = summaryOfOrder(waiting, retimeNotif.dataLists, 'GBP');
    expect([summary.scheduleChange, summary.actionBy]).toEqual([true, ACTION_BY]);
    const settled = { ...waiting, scheduleChange: false };
    const after = summaryOfOrder(settled, retimeNotif.dataLists, 'GBP');
    expect([after.scheduleChange, after.actionBy]).toEqual([undefined, undefined]);
  });
});

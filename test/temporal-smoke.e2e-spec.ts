import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { BOOKING_SEARCH_ATTRIBUTES } from '../scripts/temporal-dev-server';
import { greetingsQuery, smokeWorkflow } from './support/smoke.workflow';
import { temporalTestAddress, temporalTestNamespace, uniqueTaskQueue } from './support/temporal-env';

describe('Temporal dev server started by the jest global setup', () => {
  let connection: Connection;

  beforeAll(async () => {
    connection = await Connection.connect({ address: temporalTestAddress() });
  });

  afterAll(async () => {
    await connection.close();
  });

  it('has the booking search attributes registered as Keyword', async () => {
    const response = await connection.operatorService.listSearchAttributes({ namespace: temporalTestNamespace() });
    const custom = response.customAttributes ?? {};
    const keyword = 2; // temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD
    expect(Object.keys(BOOKING_SEARCH_ATTRIBUTES).sort()).toEqual([
      'AgencyId',
      'Airline',
      'BookingReference',
      'BookingStatus',
      'Extras',
      'Route',
    ]);
    for (const name of Object.keys(BOOKING_SEARCH_ATTRIBUTES)) {
      expect([name, custom[name]]).toEqual([name, keyword]);
    }
  });

  it('runs a trivial workflow on a real Worker', async () => {
    const taskQueue = uniqueTaskQueue('smoke');
    const workerConnection = await NativeConnection.connect({ address: temporalTestAddress() });
    try {
      const worker = await Worker.create({
        connection: workerConnection,
        namespace: temporalTestNamespace(),
        taskQueue,
        workflowsPath: require.resolve('./support/smoke.workflow'),
      });
      const client = new Client({ connection, namespace: temporalTestNamespace() });
      const workflowId = `smoke-${taskQueue}`;
      const { result, built } = await worker.runUntil(async () => {
        const handle = await client.workflow.start(smokeWorkflow, {
          taskQueue,
          workflowId,
          args: [['Ada', 'Grace']],
        });
        const value = await handle.result();
        return { result: value, built: await handle.query(greetingsQuery) };
      });
      expect(result).toEqual(['Hello, Ada!', 'Hello, Grace!']);
      expect(built).toBe(2);
      const description = await client.workflow.getHandle(workflowId).describe();
      expect(description.status.name).toBe('COMPLETED');
      expect(description.taskQueue).toBe(taskQueue);
    } finally {
      await workerConnection.close();
    }
  });
});

/**
 * registerSearchAttributes on a namespace that lacks them (as on a cluster other than the
 * embedded dev server, which registers them at start-up): adds all six, then nothing.
 */
import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { registerSearchAttributes } from '../../src/temporal/search-attributes.registration';
import { temporalTestAddress, temporalTestNamespace } from '../support/temporal-env';
import { pollUntil } from './booking.fixtures';

describe('registerSearchAttributes', () => {
  let connection: Connection;

  beforeAll(async () => {
    connection = await Connection.connect({ address: temporalTestAddress() });
  });

  afterAll(async () => {
    await connection.close();
  });

  it('finds them all already registered on the test server', async () => {
    expect(await registerSearchAttributes(temporalTestAddress(), temporalTestNamespace())).toEqual([]);
  });

  it('registers the missing ones on a fresh namespace, idempotently', async () => {
    const namespace = `sa-${randomUUID().slice(0, 8)}`;
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    const added = await pollUntil(
      () => registerSearchAttributes(connection, namespace),
      () => true,
      30_000,
    );
    expect(added).toEqual(['BookingStatus', 'AgencyId', 'Route', 'BookingReference', 'Airline', 'Extras']);
    expect(await registerSearchAttributes(connection, namespace)).toEqual([]);
    const listed = await connection.operatorService.listSearchAttributes({ namespace });
    for (const name of added) expect([name, listed.customAttributes?.[name]]).toEqual([name, 2]);
  });
});

/** Every workflow the worker registers (its `workflowsPath`), and their signals and queries. */
export { bookingWorkflow } from './booking.workflow';
export { batchWorkflow } from './batch.workflow';
export { approvePriceSignal, cancelBookingUpdate, cancelSignal, progressQuery, stateQuery } from './definitions';
export { webhookRegistryWorkflow } from './webhook-registry.workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery.workflow';

/**
 * The production booking worker (createBookingWorker) as the e2e specs run it: started, stopped
 * and started again on the same options.
 */
import { createBookingWorker, type BookingWorker, type BookingWorkerOptions } from '../../src/worker/worker';

export interface ControlledWorker {
  /** Creates a worker from the options and runs it. */
  start(): Promise<void>;
  /** Shuts the running worker down (graceful: in-flight activities get `shutdownGraceMs`); no-op when stopped. */
  stop(): Promise<void>;
}

export function controlledBookingWorker(options: BookingWorkerOptions): ControlledWorker {
  let worker: BookingWorker | undefined;
  let running: Promise<void> | undefined;
  return {
    async start() {
      worker = await createBookingWorker(options);
      running = worker.run();
    },
    async stop() {
      if (worker === undefined) return;
      worker.shutdown();
      await running;
      worker = undefined;
    },
  };
}

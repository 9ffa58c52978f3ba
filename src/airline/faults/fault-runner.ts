/**
 * Applies an armed fault around one call of an operation (`work`: the domain
 * call and the encoding of its answer; a business failure is the exception the exception filter
 * answers, so "the answer" below is either):
 * - `http500`: answers 500 without doing the work;
 * - `reset`: destroys the connection without an answer;
 * - `delay`: waits delayMs, then does the work and answers;
 * - `commit-then-timeout`: does the work (e.g. creates the order), then holds the
 *   answer back for delayMs (default 120 s) or until the client disconnects;
 * - `commit-then-500`: does the work, then answers 500;
 * - `late-commit`: does the work only delayMs (default 30 s) after the request
 *   arrived, whether or not the client is still waiting, then answers if it is;
 *   a lookup before then finds nothing;
 * - `lookup-by-pricing-id-only` changes the GET's lookup (see OrdersService), not the call;
 * - `ndc-error` answers the NDC error `errorCode` instead of doing the work (NdcExchangeInterceptor).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SimulatedFault } from '../http/ndc-http.error';
import type { ArmedFault } from './faults.service';

type WaitEnd = 'elapsed' | 'closed' | 'shutdown';

/** Waits for `work` to end either way; the result gives its value or throws its error. */
async function settle<T>(work: Promise<T>): Promise<() => T> {
  try {
    const value = await work;
    return () => value;
  } catch (err) {
    return () => {
      throw err;
    };
  }
}

export class FaultRunner {
  private readonly waiting = new Set<() => void>();

  /** Runs `work` under `fault` (none: `work()` itself). */
  async run<T>(
    fault: ArmedFault | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    work: () => Promise<T>,
  ): Promise<T> {
    switch (fault?.mode) {
      case undefined:
      case 'lookup-by-pricing-id-only':
      case 'ndc-error':
        return work();
      case 'http500':
        throw new SimulatedFault('http500');
      case 'reset':
        req.socket.destroy();
        throw new SimulatedFault('reset');
      case 'delay':
        await this.wait(fault.delayMs, res, true);
        return work();
      case 'commit-then-timeout': {
        // The answer is withheld whatever it is: the domain's answer or its error.
        const outcome = await settle(work());
        await this.wait(fault.delayMs, res, true);
        return outcome();
      }
      case 'commit-then-500':
        await settle(work());
        throw new SimulatedFault('http500');
      case 'late-commit': {
        // The commit happens at delayMs even if the client gave up; a shutdown drops it.
        if ((await this.wait(fault.delayMs, res, false)) === 'shutdown') throw new SimulatedFault('reset');
        return work();
      }
    }
  }

  /**
   * Resolves after `ms`, at shutdown, or (with `untilClose`) when the client
   * disconnects, whichever comes first; says which.
   */
  private wait(ms: number, res: ServerResponse, untilClose: boolean): Promise<WaitEnd> {
    return new Promise((resolve) => {
      const finish = (end: WaitEnd) => {
        clearTimeout(timer);
        res.off('close', onClose);
        this.waiting.delete(onShutdown);
        resolve(end);
      };
      const onClose = () => finish('closed');
      const onShutdown = () => finish('shutdown');
      const timer = setTimeout(() => finish('elapsed'), ms);
      if (untilClose) res.on('close', onClose);
      this.waiting.add(onShutdown);
    });
  }

  /** Ends every pending wait (the app is closing). */
  releaseAll(): void {
    for (const done of [...this.waiting]) done();
  }
}

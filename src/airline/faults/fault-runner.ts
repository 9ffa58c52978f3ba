/**
 * Applies armed faults around one call of an operation:
 * - `http500`: answers 500 without doing the work;
 * - `reset`: destroys the connection without an answer;
 * - `delay`: waits delayMs, then does the work and answers;
 * - `commit-then-timeout`: does the work (e.g. creates the order), then holds the
 *   answer back for delayMs (default 120 s) or until the client disconnects;
 * - `commit-then-500`: does the work, then answers 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HttpReply, textReply } from '../http/reply';
import type { ArmedFault, FaultOperation, FaultService } from './faults.service';

export class FaultRunner {
  private readonly waiting = new Set<() => void>();

  constructor(private readonly faults: FaultService) {}

  /**
   * Runs `work` for one call of `operation`, with the next armed fault applied;
   * undefined = no answer. Without an armed fault this is `work()` itself (no
   * extra promise on the way of every request).
   */
  run(
    operation: FaultOperation,
    req: IncomingMessage,
    res: ServerResponse,
    work: () => HttpReply | Promise<HttpReply>,
  ): HttpReply | Promise<HttpReply | undefined> {
    const fault = this.faults.take(operation);
    if (!fault) return work();
    return this.runFaulted(fault, req, res, work);
  }

  private async runFaulted(
    fault: ArmedFault,
    req: IncomingMessage,
    res: ServerResponse,
    work: () => HttpReply | Promise<HttpReply>,
  ): Promise<HttpReply | undefined> {
    switch (fault.mode) {
      case 'http500':
        return simulated500();
      case 'reset':
        req.socket.destroy();
        return undefined;
      case 'delay':
        await this.wait(fault.delayMs, res);
        return work();
      case 'commit-then-timeout': {
        const reply = await work();
        await this.wait(fault.delayMs, res);
        return reply;
      }
      case 'commit-then-500':
        await work();
        return simulated500();
    }
  }

  /** Resolves after `ms`, when the client disconnects, or at shutdown, whichever comes first. */
  private wait(ms: number, res: ServerResponse): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        res.off('close', done);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      res.on('close', done);
      this.waiting.add(done);
    });
  }

  /** Ends every pending wait (the app is closing). */
  releaseAll(): void {
    for (const done of [...this.waiting]) done();
  }
}

function simulated500(): HttpReply {
  return textReply(500, 'Internal Server Error (simulated fault)');
}

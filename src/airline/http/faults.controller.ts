/**
 * Fault simulator admin endpoint (`/_sim/faults`), registered only when
 * NODE_ENV is not `production` (there it is a 404).
 */
import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultService, armFaultSchema } from '../faults/faults.service';
import { JsonBodyError, readJsonBody } from './json-body';
import { jsonError, jsonReply, sendReply } from './reply';

@Controller('_sim/faults')
export class FaultsController {
  constructor(@Inject(FaultService) private readonly faults: FaultService) {}

  @Post()
  async arm(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      body = await readJsonBody(req, 4096);
    } catch (err) {
      if (err instanceof JsonBodyError) return sendReply(req, res, jsonError(err.status, err.message));
      throw err;
    }
    const parsed = armFaultSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return sendReply(req, res, jsonError(400, `Bad Request: ${issue.path.join('.') || 'body'} ${issue.message}`));
    }
    sendReply(req, res, jsonReply(201, { armed: this.faults.arm(parsed.data), faults: this.faults.list() }));
  }

  @Get()
  list(@Req() req: IncomingMessage, @Res() res: ServerResponse): void {
    sendReply(req, res, jsonReply(200, { faults: this.faults.list() }));
  }

  @Delete()
  clear(@Req() req: IncomingMessage, @Res() res: ServerResponse): void {
    this.faults.clear();
    sendReply(req, res, { status: 204 });
  }
}

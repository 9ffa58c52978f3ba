/**
 * Fault simulator admin endpoint (`/_sim/faults`, the airline's Basic
 * credentials), registered only when NODE_ENV is not `production` (there it
 * is a 404).
 */
import { Controller, Delete, Get, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { type ArmedFault, FaultService } from '../faults/faults.service';
import { BasicAuthGuard } from './basic-auth.guard';
import { JsonBody } from './json-body.decorator';
import { JsonHttpError } from './ndc-http.error';

@Controller('_sim/faults')
@UseGuards(BasicAuthGuard)
export class FaultsController {
  constructor(@Inject(FaultService) private readonly faults: FaultService) {}

  @Post()
  @HttpCode(201)
  arm(@JsonBody() body: unknown): { armed: ArmedFault; faults: ArmedFault[] } {
    const parsed = this.faults.schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new JsonHttpError(400, `Bad Request: ${issue.path.join('.') || 'body'} ${issue.message}`);
    }
    return { armed: this.faults.arm(parsed.data), faults: this.faults.list() };
  }

  @Get()
  list(): { faults: ArmedFault[] } {
    return { faults: this.faults.list() };
  }

  @Delete()
  @HttpCode(204)
  clear(): void {
    this.faults.clear();
  }
}

/**
 * Schedule-change simulator (`POST /_sim/schedule-changes`, docs/airline-service.md, "Schedule
 * changes"), with the airline's Basic credentials like `/_sim/faults`, registered only when
 * NODE_ENV is not `production`. Answers `{ "orders": [{ "orderId", "bookingReference" }] }` with
 * the orders it changed; a bad body is a 400 naming the field.
 */
import { Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import {
  ScheduleChangeError,
  ScheduleChangeService,
  scheduleChangeSchema,
  type ScheduleChangeResult,
} from '../schedule/schedule-changes';
import { BasicAuthGuard } from './basic-auth.guard';
import { JsonBody } from './json-body.decorator';
import { JsonHttpError } from './ndc-http.error';

@Controller('_sim/schedule-changes')
@UseGuards(BasicAuthGuard)
export class ScheduleChangesController {
  constructor(@Inject(ScheduleChangeService) private readonly changes: ScheduleChangeService) {}

  @Post()
  @HttpCode(200)
  change(@JsonBody() body: unknown): ScheduleChangeResult {
    const parsed = scheduleChangeSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new JsonHttpError(400, `Bad Request: ${issue.path.join('.') || 'body'} ${issue.message}`);
    }
    try {
      return this.changes.change(parsed.data);
    } catch (error) {
      if (error instanceof ScheduleChangeError) throw new JsonHttpError(400, `Bad Request: ${error.message}`);
      throw error;
    }
  }
}

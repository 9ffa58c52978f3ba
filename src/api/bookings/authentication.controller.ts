/**
 * 3-D Secure results (docs/api.md, "3-D Secure"): the traveller's browser returning from the
 * issuer (no credential, the booking's return token), and agencies posting the result their own
 * return page received (API key).
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticationReturn } from '../../booking/booking.model';
import { Public } from '../auth/auth.decorators';
import { Caller } from '../common/caller.decorator';
import type { Principal } from '../common/principal';
import { ApiError } from '../common/api-error';
import type { HttpResponse as Response } from '../common/http.types';
import { Authenticated, ProblemResponses } from '../common/openapi.decorators';
import { AuthenticationService } from './authentication.service';

/** Longest PaRes accepted (as the workflow's validator). */
const MAX_PARES = 8192;

/** The result of a return or a post, checked: `approved` / `declined`, PaRes as it came. */
export function authenticationReturnOf(result: unknown, paRes: unknown): AuthenticationReturn {
  if (result !== 'approved' && result !== 'declined')
    throw new ApiError('INVALID_REQUEST', 'Invalid 3-D Secure result', {
      fields: [{ path: 'result', message: 'must be approved or declined' }],
    });
  if (paRes === undefined || paRes === '') return { outcome: result };
  if (typeof paRes !== 'string' || paRes.length > MAX_PARES)
    throw new ApiError('INVALID_REQUEST', 'Invalid 3-D Secure result', {
      fields: [{ path: 'paRes', message: `must be a string of at most ${MAX_PARES} characters` }],
    });
  return { outcome: result, paRes };
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

@ApiTags('bookings')
@Controller('bookings')
export class AuthenticationReturnController {
  constructor(private readonly authentication: AuthenticationService) {}

  @Public()
  @Get(':id/authentication/return')
  @ApiOperation({
    summary:
      "3-D Secure TermURL / FailURL: the traveller's browser back from the issuer (no credential: the booking's one-time return token). Records the result, then 303 to the intent's securePayment.termUrl or failUrl",
  })
  @ApiParam({ name: 'id' })
  @ApiQuery({ name: 'token', description: "The booking's return token (in the URL the API sent to the airline)" })
  @ApiQuery({ name: 'result', enum: ['approved', 'declined'] })
  @ApiQuery({ name: 'PaRes', required: false, description: "The issuer's signed result, as the airline appended it" })
  @ApiResponse({ status: 303, description: "Location: the intent's termUrl (approved) or failUrl" })
  @ProblemResponses(
    [400, 'No or a bad result'],
    [404, 'Unknown booking, or not its token'],
    [409, 'Not asked for 3-D Secure'],
  )
  async returnGet(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    await this.answer(id, query, undefined, res);
  }

  @Public()
  @Post(':id/authentication/return')
  @ApiOperation({ summary: 'The same as GET, for issuers that POST the browser back (PaRes in a form body)' })
  @ApiParam({ name: 'id' })
  @ApiResponse({ status: 303, description: "Location: the intent's termUrl (approved) or failUrl" })
  @ProblemResponses(
    [400, 'No or a bad result'],
    [404, 'Unknown booking, or not its token'],
    [409, 'Not asked for 3-D Secure'],
  )
  async returnPost(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: { body?: unknown },
    @Res() res: Response,
  ): Promise<void> {
    await this.answer(id, query, req.body as Record<string, unknown> | undefined, res);
  }

  private async answer(
    id: string,
    query: Record<string, unknown>,
    form: Record<string, unknown> | undefined,
    res: Response,
  ): Promise<void> {
    const returned = authenticationReturnOf(query.result, str(form?.PaRes) ?? str(query.PaRes));
    const location = await this.authentication.returnFromAuthentication(id, query.token, returned);
    // The return URL carries the token: never sent on as a Referer, never cached.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, location);
  }
}

@ApiTags('bookings')
@Authenticated()
@Controller('bookings')
export class AuthenticationController {
  constructor(private readonly authentication: AuthenticationService) {}

  @Post(':id/authentication')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Post the 3-D Secure result the agency's own return page received (`{ result: approved|declined, paRes? }`); the first result counts",
  })
  @ApiParam({ name: 'id' })
  @ApiBody({ schema: { $ref: '#/components/schemas/AuthenticationResult' } })
  @ApiResponse({
    status: 200,
    description: 'Recorded (`first: true`), or the result taken before (`first: false`)',
    schema: { $ref: '#/components/schemas/AuthenticationReceipt' },
  })
  @ProblemResponses(
    [400, 'Bad result'],
    [404, "Unknown id, or another agency's booking"],
    [409, 'Not waiting for 3-D Secure'],
  )
  post(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
  ): Promise<{ id: string; outcome: string; first: boolean }> {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    return this.authentication.postAuthentication(id, caller, authenticationReturnOf(b.result, b.paRes));
  }
}

/**
 * `POST /retail/offers` (searches: most of an agency's traffic) served
 * straight from the HTTP server's `request` event, ahead of Express's router
 * and Nest's execution context. It runs what Nest would run for that route,
 * in the same order and with the same instances: the Basic auth check of
 * {@link BasicAuthGuard}, the retail controller's route through
 * {@link NdcPipeline.handlePost}, and {@link AirlineExceptionFilter} for
 * whatever escapes; so status, headers and body are the same. Every other
 * request (other paths, other methods, `/Retail/Offers/` and other spellings
 * Express also matches) goes to Nest as before.
 *
 * Why: Express's router and Nest's per-request context cost about 15 us of
 * the ~140 us a cached search takes (see bench/README.md, "airline").
 */
import type { ArgumentsHost } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AirlineConfig } from '../airline.config';
import type { AirlineExceptionFilter } from './airline-exception.filter';
import { UnauthorizedRetailError, basicCredentialsMatch } from './basic-auth.guard';
import type { NdcPipeline, NdcRoute } from './ndc-pipeline';

/** A POST route served directly: exact path (a query string is allowed) and its NDC route. */
export interface DirectRoute {
  path: string;
  route: NdcRoute;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The part of ArgumentsHost the airline's exception filter uses. */
function httpHost(req: IncomingMessage, res: ServerResponse): ArgumentsHost {
  const http = { getRequest: () => req, getResponse: () => res, getNext: () => undefined };
  return { switchToHttp: () => http, getType: () => 'http', getArgs: () => [req, res], getArgByIndex: (i: number) => [req, res][i] } as unknown as ArgumentsHost;
}

/** True when `url` is `path`, optionally followed by a query string. */
export function urlIsPath(url: string | undefined, path: string): boolean {
  return url !== undefined && url.startsWith(path) && (url.length === path.length || url.charCodeAt(path.length) === 63 /* ? */);
}

/**
 * Puts `routes` in front of the server's existing `request` listeners (Nest's
 * Express app), which keep receiving every other request.
 */
export function installDirectRoutes(
  server: Server,
  routes: DirectRoute[],
  deps: { config: AirlineConfig; pipeline: NdcPipeline; filter: AirlineExceptionFilter },
): void {
  const others = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const serve = async (req: IncomingMessage, res: ServerResponse, route: NdcRoute): Promise<void> => {
    try {
      if (!basicCredentialsMatch(req.headers.authorization, deps.config.username, deps.config.password)) {
        throw new UnauthorizedRetailError('missing or wrong credentials');
      }
      await deps.pipeline.handlePost(req, res, route);
    } catch (err) {
      deps.filter.catch(err, httpHost(req, res));
    }
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST') {
      for (const r of routes) {
        if (urlIsPath(req.url, r.path)) {
          void serve(req, res, r.route);
          return;
        }
      }
    }
    for (const listener of others) listener.call(server, req, res);
  });
}

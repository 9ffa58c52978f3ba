/**
 * A small HTTP server for what operators and orchestrators call on a process that has no HTTP
 * interface of its own (the worker), or beside one: `GET /health/live`, `GET /health/ready` and
 * `GET /metrics` (Prometheus text format). Anything else is 404. Node's http module only.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** The answer of a probe: `ok` false gives HTTP 503. `details` is JSON-serialised (no secrets). */
export interface ProbeResult {
  ok: boolean;
  status: string;
  details?: Record<string, unknown>;
}

/** Options of {@link startOpsServer}. */
export interface OpsServerOptions {
  /** Port; 0 picks a free one. */
  port: number;
  /** Interface. Default `0.0.0.0` (scraped and probed from outside the container). */
  host?: string;
  /**
   * Serve `/health/live` and `/health/ready`. Default `true`; `false` for a process whose health
   * is on its own HTTP port (the API, the airline): this server then only has `/metrics`.
   */
  health?: boolean;
  /** Liveness probe. Default: always ok. */
  live?: () => Promise<ProbeResult> | ProbeResult;
  /** Readiness probe. Default: always ok. */
  ready?: () => Promise<ProbeResult> | ProbeResult;
  /** Registry served at /metrics; omit to have no /metrics. */
  registry?: Registry;
  /**
   * More Prometheus text appended to /metrics (e.g. the Temporal SDK core's own exporter, fetched
   * from its port). Failures are reported as a comment, not an error, so our metrics still serve.
   */
  extraMetrics?: () => Promise<string>;
}

/** A running ops server. */
export interface OpsServer {
  /** `http://host:port` (host `127.0.0.1` when bound to every interface). */
  url: string;
  port: number;
  close(): Promise<void>;
}

async function probe(fn: OpsServerOptions['live']): Promise<ProbeResult> {
  if (fn === undefined) return { ok: true, status: 'ok' };
  try {
    return await fn();
  } catch (error) {
    return { ok: false, status: 'error', details: { error: (error as Error).message } };
  }
}

/** Starts the server; resolves once it listens. */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const host = options.host ?? '0.0.0.0';
  const server = http.createServer((req, res) => {
    void handle(req, res);
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if ((path === '/health/live' || path === '/health/ready') && options.health !== false) {
      const result = await probe(path === '/health/live' ? options.live : options.ready);
      res.writeHead(result.ok ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: result.status, ...result.details }));
      return;
    }
    if (path === '/metrics' && options.registry !== undefined) {
      let body = await options.registry.metrics();
      if (options.extraMetrics !== undefined) {
        try {
          body += `\n${await options.extraMetrics()}`;
        } catch (error) {
          body += `\n# extra metrics unavailable: ${(error as Error).message.replace(/\n/g, ' ')}\n`;
        }
      }
      res.writeHead(200, { 'content-type': options.registry.contentType });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp } from 'pino-http';
import { httpLoggerOptions, httpServerSpans, routeOf, type RoutedRequest } from './http';
import { createLogger, pinoLevelOfNestLevels } from './logger';
import { InMemorySpanExporter, setupTracing } from './tracing';

/** An HTTP server running `handler` on a free loopback port. */
async function serve(
  handler: (req: RoutedRequest, res: http.ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => handler(req as RoutedRequest, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('routeOf', () => {
  it('is the matched route template, or unmatched', () => {
    expect(routeOf({ route: { path: '/bookings/:id' }, baseUrl: '' } as RoutedRequest)).toBe('/bookings/:id');
    expect(routeOf({ route: { path: '/:id' }, baseUrl: '/batches' } as RoutedRequest)).toBe('/batches/:id');
    expect(routeOf({} as RoutedRequest)).toBe('unmatched');
  });
});

describe('pinoLevelOfNestLevels', () => {
  it('is the most verbose Nest level listed, silent for none', () => {
    expect(pinoLevelOfNestLevels(['log', 'error', 'warn'])).toBe('info');
    expect(pinoLevelOfNestLevels(['error', 'warn'])).toBe('warn');
    expect(pinoLevelOfNestLevels(['fatal', 'verbose'])).toBe('trace');
    expect(pinoLevelOfNestLevels([])).toBe('silent');
  });
});

describe('httpLoggerOptions', () => {
  it('logs one access line with the request id, route and safe headers only, never the credentials', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      service: 'test',
      level: 'trace',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      }),
    });
    const middleware = pinoHttp(
      httpLoggerOptions({
        logger,
        genReqId: (req) => String(req.headers['x-request-id']),
        props: () => ({ correlationId: 'corr-1' }),
        propsAtEnd: () => ({ workflowId: 'wf-1' }),
        quietPaths: ['/health'],
      }),
    );
    const server = await serve((req, res) =>
      middleware(req, res, () => {
        req.route = { path: '/things/:id' };
        if (req.url !== '/health') (req as RoutedRequest & { log: typeof logger }).log.info('inside the request');
        res.statusCode = req.url === '/health' ? 200 : 202;
        res.end('ok');
      }),
    );
    try {
      const headers = {
        authorization: 'Bearer nsk_abc_supersecretvalue',
        'x-api-key': 'supersecretvalue',
        cookie: 'session=supersecretvalue',
        'x-request-id': 'req-1',
        'content-type': 'application/json',
      };
      await fetch(`${server.url}/things/4111111111111111?card=4111111111111111`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      await fetch(`${server.url}/health`, { headers: { 'x-request-id': 'probe' } });
    } finally {
      await server.close();
    }
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((l) => [l.requestId, l.msg])).toEqual([
      ['req-1', 'inside the request'],
      ['req-1', 'POST /things/:id 202'],
    ]);
    expect(parsed[0]).toMatchObject({ correlationId: 'corr-1', req: { method: 'POST' } });
    for (const line of lines) expect(line.match(/"requestId"/g)).toHaveLength(1);
    expect(parsed[1]).toMatchObject({
      level: 'info',
      route: '/things/:id',
      workflowId: 'wf-1',
      correlationId: 'corr-1',
      res: { statusCode: 202 },
      req: {
        method: 'POST',
        url: '/things/[Redacted]?card=[Redacted]',
        headers: { 'x-request-id': 'req-1', 'content-type': 'application/json' },
      },
    });
    expect(Object.keys((parsed[1]!.req as { headers: object }).headers).sort()).toEqual([
      'content-length',
      'content-type',
      'user-agent',
      'x-request-id',
    ]);
    expect(lines.join('\n')).not.toMatch(/supersecretvalue|4111111111111111/);
  });
});

describe('httpServerSpans', () => {
  it("continues the caller's traceparent, names the span by route and status, and is the active context", async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = setupTracing({ service: 'test', env: {}, exporter })!;
    const spans = httpServerSpans();
    const server = await serve((req, res) =>
      spans(req, res, () => {
        req.route = { path: '/items/:id' };
        tracing.tracer.startSpan('handler work').end();
        res.statusCode = req.url === '/items/fail' ? 503 : 200;
        res.end();
      }),
    );
    try {
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const callerSpan = 'b7ad6b7169203331';
      await fetch(`${server.url}/items/1`, { headers: { traceparent: `00-${traceId}-${callerSpan}-01` } });
      await fetch(`${server.url}/items/fail`);
      const finished = exporter.getFinishedSpans();
      const servers = finished.filter((s) => s.name === 'GET /items/:id');
      expect(servers).toHaveLength(2);
      const [first, second] = servers;
      expect([first!.spanContext().traceId, first!.parentSpanId]).toEqual([traceId, callerSpan]);
      expect(first!.attributes).toMatchObject({ 'http.route': '/items/:id', 'http.response.status_code': 200 });
      expect(second!.parentSpanId).toBeUndefined();
      expect(second!.spanContext().traceId).not.toBe(traceId);
      expect(second!.status.code).toBe(2); // ERROR
      const work = finished.filter((s) => s.name === 'handler work');
      expect(work.map((s) => s.parentSpanId)).toEqual([first!.spanContext().spanId, second!.spanContext().spanId]);
    } finally {
      await server.close();
      await tracing.shutdown();
    }
  });
});

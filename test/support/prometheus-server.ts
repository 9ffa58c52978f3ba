/**
 * A real Prometheus (Debian's `prometheus` binary) for tests: scrapes the given targets every
 * second, evaluates ops/prometheus/alerts.yml with every `for:` shortened to 1 s (a test-only
 * copy of the rules, so alerts show without waiting minutes), and answers its HTTP API.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';
import { freePort } from '../../scripts/temporal-dev-server';

const RULES = path.resolve(__dirname, '..', '..', 'ops', 'prometheus', 'alerts.yml');

export interface PrometheusServer {
  url: string;
  /** Alerts as `GET /api/v1/alerts` lists them. */
  alerts(): Promise<{ labels: Record<string, string>; state: 'pending' | 'firing' }[]>;
  /** The `data` of a GET of its HTTP API, e.g. `/api/v1/rules` or `/api/v1/targets`. */
  api<T>(apiPath: string): Promise<T>;
  stop(): Promise<void>;
}

/** Scrape jobs: job name → `host:port` targets of `/metrics`. */
export async function startPrometheus(jobs: Record<string, string[]>): Promise<PrometheusServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-prometheus-'));
  const rules = parse(fs.readFileSync(RULES, 'utf8')) as { groups: { rules: { for?: string }[] }[] };
  for (const group of rules.groups) for (const rule of group.rules) if (rule.for !== undefined) rule.for = '1s';
  fs.writeFileSync(path.join(dir, 'alerts.yml'), stringify(rules));
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: ['alerts.yml'],
    scrape_configs: Object.entries(jobs).map(([job, targets]) => ({
      job_name: job,
      static_configs: [{ targets }],
    })),
  };
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  const child = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`prometheus did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const api = async <T>(apiPath: string): Promise<T> => {
    const response = await fetch(`${url}${apiPath}`, { signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new Error(`prometheus GET ${apiPath}: HTTP ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: T }).data;
  };
  return {
    url,
    alerts: async () =>
      (await api<{ alerts: { labels: Record<string, string>; state: 'pending' | 'firing' }[] }>('/api/v1/alerts'))
        .alerts,
    api,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

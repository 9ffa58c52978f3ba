/**
 * No Docker engine runs in CI, so docker-compose.yml and the Dockerfile are checked structurally:
 * services, images, dependencies, health checks, ports, and that every variable handed to our own
 * services is one our code reads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import {
  BOOKING_SEARCH_ATTRIBUTES,
  DEV_SERVER_DYNAMIC_CONFIG,
  TASK_DISPATCH_DYNAMIC_CONFIG,
} from '../scripts/temporal-dev-server';
import { serverEnvironment, TEMPORAL_SERVER_VERSION, type ServerPorts } from '../scripts/temporal-server';

const ROOT = path.resolve(__dirname, '..');

interface ComposeService {
  image?: string;
  build?: string | { context: string };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  healthcheck?: { test: string[] };
  volumes?: string[];
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;
const services = compose.services;
const OUR_ROLES = ['airline', 'airline-yy', 'worker', 'api'] as const;
/** The airlines file the worker and the API mount. */
const AIRLINES = JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts', 'topology', 'airlines.json'), 'utf8')) as {
  airlines: { code: string; baseUrl: string; username: string; passwordEnv: string }[];
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(relative));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) out.push(relative);
  }
  return out;
}

function commandText(service: ComposeService): string {
  const command = service.command ?? [];
  return Array.isArray(command) ? command.join('\n') : command;
}

describe('docker-compose.yml (structure only: no Docker engine here)', () => {
  it('declares exactly the deployment services', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'airline',
        'airline-yy',
        'api',
        'postgresql',
        'temporal',
        'temporal-schema',
        'temporal-setup',
        'temporal-ui',
        'worker',
      ].sort(),
    );
  });

  it('runs the Temporal server version the topology test runs, on PostgreSQL 15', () => {
    expect(services.postgresql.image).toBe('postgres:15');
    expect(services.temporal.image).toBe(`temporalio/server:\${TEMPORAL_VERSION:-${TEMPORAL_SERVER_VERSION}}`);
    expect(services['temporal-schema'].image).toBe(
      `temporalio/admin-tools:\${TEMPORAL_VERSION:-${TEMPORAL_SERVER_VERSION}}`,
    );
    expect(services['temporal-setup'].image).toBe(
      `temporalio/admin-tools:\${TEMPORAL_VERSION:-${TEMPORAL_SERVER_VERSION}}`,
    );
    expect(services['temporal-ui'].image).toMatch(/^temporalio\/ui:/);
    expect(services['temporal-ui'].environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it('mounts and runs the config, dynamic config, schema and setup files the topology test uses', () => {
    const mount = './scripts/topology:/etc/ndc-saga/temporal:ro';
    for (const name of ['temporal-schema', 'temporal', 'temporal-setup']) {
      expect([name, services[name].volumes]).toEqual([name, [mount]]);
    }
    for (const file of ['temporal-server.yaml', 'dynamic-config.yaml', 'temporal-schema.sh', 'temporal-setup.sh']) {
      expect([file, fs.existsSync(path.join(ROOT, 'scripts', 'topology', file))]).toEqual([file, true]);
    }
    expect(services['temporal-schema'].entrypoint).toEqual(['/bin/sh', '/etc/ndc-saga/temporal/temporal-schema.sh']);
    expect(services['temporal-setup'].entrypoint).toEqual(['/bin/sh', '/etc/ndc-saga/temporal/temporal-setup.sh']);
    expect(commandText(services.temporal)).toContain(
      'exec temporal-server --config-file /etc/ndc-saga/temporal/temporal-server.yaml start',
    );
    expect(services.temporal.environment?.DYNAMIC_CONFIG_FILE_PATH).toBe('/etc/ndc-saga/temporal/dynamic-config.yaml');
  });

  it('runs the real server with the task priority and fairness settings the dev servers of the tests use', () => {
    const dynamic = parse(
      fs.readFileSync(path.join(ROOT, 'scripts', 'topology', 'dynamic-config.yaml'), 'utf8'),
    ) as Record<string, { value: unknown; constraints?: Record<string, unknown> }[]>;
    expect(TASK_DISPATCH_DYNAMIC_CONFIG).toEqual({
      'matching.enableFairness': true,
      'matching.numTaskqueueReadPartitions': 1,
      'matching.numTaskqueueWritePartitions': 1,
    });
    for (const [key, value] of Object.entries(TASK_DISPATCH_DYNAMIC_CONFIG)) {
      // One unconstrained value, the same as the dev servers get (and the same for every task queue).
      expect([key, dynamic[key]]).toEqual([key, [{ value, constraints: {} }]]);
      expect([key, DEV_SERVER_DYNAMIC_CONFIG[key]]).toEqual([key, value]);
    }
    // No other matching setting on either side that the other lacks.
    const matching = (keys: string[]) => keys.filter((key) => key.startsWith('matching.')).sort();
    expect(matching(Object.keys(dynamic))).toEqual(matching(Object.keys(DEV_SERVER_DYNAMIC_CONFIG)));
  });

  it('gives the server only variables our config file reads, and the test sets the same ones', () => {
    const template = fs.readFileSync(path.join(ROOT, 'scripts', 'topology', 'temporal-server.yaml'), 'utf8');
    const read = new Set(
      [...template.matchAll(/env "([A-Z_]+)"|list ((?:"[A-Z_]+" ?)+)/g)].flatMap((m) =>
        m[1] !== undefined ? [m[1]] : [...m[2].matchAll(/"([A-Z_]+)"/g)].map((q) => q[1]),
      ),
    );
    const composeVars = Object.keys(services.temporal.environment ?? {});
    for (const name of [...composeVars, 'TEMPORAL_BROADCAST_ADDRESS'])
      expect([name, read.has(name)]).toEqual([name, true]);
    const testVars = Object.keys(
      serverEnvironment({ host: 'h', port: 1, user: 'u', password: 'p' }, {} as ServerPorts),
    );
    for (const name of testVars) expect([name, read.has(name)]).toEqual([name, true]);
    // Compose sets a subset of what the test sets (ports there are the defaults).
    for (const name of composeVars) expect([name, testVars.includes(name)]).toEqual([name, true]);
  });

  it('never ignores a failing command (no `|| true`)', () => {
    const texts = [
      fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'),
      fs.readFileSync(path.join(ROOT, 'scripts', 'topology', 'temporal-schema.sh'), 'utf8'),
      fs.readFileSync(path.join(ROOT, 'scripts', 'topology', 'temporal-setup.sh'), 'utf8'),
    ];
    for (const text of texts) expect(text).not.toMatch(/\|\|\s*true/);
  });

  it('builds our three roles from the Dockerfile as one image, the command picking the role', () => {
    const images = new Set(OUR_ROLES.map((role) => services[role].image));
    expect(images.size).toBe(1);
    for (const role of OUR_ROLES) {
      expect([role, services[role].build]).toEqual([role, '.']);
      expect([role, services[role].command]).toEqual([role, [role.replace(/-yy$/, '')]]);
    }
    const entrypoint = fs.readFileSync(path.join(ROOT, 'scripts', 'docker-entrypoint.sh'), 'utf8');
    const targets: Record<string, string> = { airline: 'src/airline/main', worker: 'src/worker/main', api: 'src/main' };
    for (const role of ['airline', 'worker', 'api']) {
      expect(entrypoint).toContain(`${role}) `);
      expect(entrypoint).toContain(`node dist/${targets[role]}.js`);
    }
  });

  it('has entry files for every role the image can run', () => {
    for (const entry of ['src/airline/main.ts', 'src/worker/main.ts', 'src/main.ts']) {
      expect([entry, fs.existsSync(path.join(ROOT, entry))]).toEqual([entry, true]);
    }
  });

  it('depends only on declared services, with health checks behind every service_healthy', () => {
    const conditions = new Set(['service_started', 'service_healthy', 'service_completed_successfully']);
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect([name, dependency, dependency in services]).toEqual([name, dependency, true]);
        expect([name, dependency, conditions.has(condition)]).toEqual([name, dependency, true]);
        if (condition === 'service_healthy') {
          expect([dependency, services[dependency].healthcheck !== undefined]).toEqual([dependency, true]);
        }
      }
    }
    expect(services.temporal.depends_on).toEqual({
      'temporal-schema': { condition: 'service_completed_successfully' },
    });
    for (const role of ['worker', 'api'] as const) {
      expect(services[role].depends_on).toEqual({
        'temporal-setup': { condition: 'service_completed_successfully' },
        airline: { condition: 'service_healthy' },
        'airline-yy': { condition: 'service_healthy' },
      });
    }
  });

  it('has no dependency cycle', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string, trail: string[]): void => {
      if (done.has(name)) return;
      if (visiting.has(name)) throw new Error(`cycle: ${[...trail, name].join(' -> ')}`);
      visiting.add(name);
      for (const dependency of Object.keys(services[name].depends_on ?? {})) visit(dependency, [...trail, name]);
      visiting.delete(name);
      done.add(name);
    };
    expect(() => Object.keys(services).forEach((name) => visit(name, []))).not.toThrow();
  });

  it('registers the booking search attributes as Keyword in the one-shot setup', () => {
    const setup = fs.readFileSync(path.join(ROOT, 'scripts', 'topology', 'temporal-setup.sh'), 'utf8');
    expect(setup).toContain(`attributes="${Object.keys(BOOKING_SEARCH_ATTRIBUTES).join(' ')}"`);
    expect(setup).toContain('--type Keyword');
    expect(setup).toContain('operator namespace create');
    expect(services['temporal-setup'].environment?.TEMPORAL_NAMESPACE).toBe('default');
  });

  it('wires the roles to each other by service name and port, the airlines through one mounted airlines file', () => {
    expect(AIRLINES.airlines.map((a) => [a.code, a.baseUrl])).toEqual([
      ['ZZ', `http://airline:${services.airline.environment?.AIRLINE_PORT}`],
      ['YY', `http://airline-yy:${services['airline-yy'].environment?.AIRLINE_PORT}`],
    ]);
    expect(services['airline-yy'].environment?.AIRLINE_CODE).toBe('YY');
    expect([services.airline, services['airline-yy']].map((a) => a.environment?.AIRLINE_USERNAME)).toEqual(
      AIRLINES.airlines.map((a) => a.username),
    );
    for (const role of ['worker', 'api'] as const) {
      const env = services[role].environment ?? {};
      expect([role, env.TEMPORAL_ADDRESS, env.TEMPORAL_NAMESPACE]).toEqual([role, 'temporal:7233', 'default']);
      expect([role, env.AIRLINES_FILE]).toEqual([role, '/etc/ndc-saga/airlines.json']);
      expect(services[role].volumes).toContain('./scripts/topology/airlines.json:/etc/ndc-saga/airlines.json:ro');
    }
    // Only the worker holds the airlines' passwords, under the names the file gives.
    for (const { passwordEnv } of AIRLINES.airlines) {
      expect(services.worker.environment?.[passwordEnv]).toMatch(/^\$\{[A-Z_]+:\?/);
      expect(services.api.environment?.[passwordEnv]).toBeUndefined();
    }
    expect(services.worker.environment?.TEMPORAL_TASK_QUEUE).toBe(services.api.environment?.TEMPORAL_TASK_QUEUE);
    expect(services.worker.environment?.PAYLOAD_ENCRYPTION_KEY).toBe(services.api.environment?.PAYLOAD_ENCRYPTION_KEY);
  });

  it('takes secrets from the caller (required ${VAR:?...}), never a default', () => {
    const secrets = [
      'AIRLINE_PASSWORD',
      'AIRLINE_VAULT_KEY',
      'PAYLOAD_ENCRYPTION_KEY',
      ...AIRLINES.airlines.map((a) => a.passwordEnv),
    ];
    for (const role of OUR_ROLES) {
      for (const [name, value] of Object.entries(services[role].environment ?? {})) {
        if (secrets.includes(name))
          expect([role, name, value]).toEqual([role, name, expect.stringMatching(/^\$\{[A-Z_]+:\?/)]);
      }
    }
  });

  it('passes our roles only variables that our code reads', () => {
    const code = [...sourceFiles('src'), ...sourceFiles('activities')]
      .map((file) => fs.readFileSync(path.join(ROOT, file), 'utf8'))
      .join('\n');
    for (const role of OUR_ROLES) {
      for (const name of Object.keys(services[role].environment ?? {})) {
        // The airlines' password variables are named by the airlines file (passwordEnv).
        if (name === 'NODE_ENV' || AIRLINES.airlines.some((a) => a.passwordEnv === name)) continue;
        expect([role, name, code.includes(name)]).toEqual([role, name, true]);
      }
    }
  });

  it('publishes each host port once: API 3000, airlines 4010 and 4011, Temporal 7233, Web UI 8233', () => {
    const published = Object.entries(services).flatMap(([name, service]) =>
      (service.ports ?? []).map((mapping) => {
        const [host, container] = mapping.split(':');
        return { name, host: Number(host), container: Number(container) };
      }),
    );
    expect(published.sort((a, b) => a.host - b.host)).toEqual([
      { name: 'api', host: 3000, container: 3000 },
      { name: 'airline', host: 4010, container: 4010 },
      { name: 'airline-yy', host: 4011, container: 4011 },
      { name: 'temporal', host: 7233, container: 7233 },
      { name: 'temporal-ui', host: 8233, container: 8080 },
    ]);
    expect(services.api.environment?.API_PORT).toBe('3000');
  });

  it("serves each role's /metrics on its own port inside the network, none published (docs/operations.md)", () => {
    expect([
      services.worker.environment?.WORKER_HTTP_PORT,
      services.api.environment?.API_METRICS_PORT,
      services.airline.environment?.AIRLINE_METRICS_PORT,
    ]).toEqual(['9464', '9465', '9466']);
  });

  it('gives the API a persistent keys file and lets the Web UI pass its access token to the codec endpoint', () => {
    expect(services.api.environment?.API_KEYS_FILE).toBe('/keys/api-keys.json');
    expect(services.api.volumes).toContain('api-keys:/keys');
    expect(services['temporal-ui'].environment?.TEMPORAL_CODEC_ENDPOINT).toBe('http://localhost:3000/codec');
    expect(services['temporal-ui'].environment?.TEMPORAL_CODEC_PASS_ACCESS_TOKEN).toBe('true');
    expect(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).toMatch(
      /mkdir -p \/data \/keys && chown node:node \/data \/keys/,
    );
  });

  it('declares the named volumes it mounts', () => {
    const mounted = Object.values(services)
      .flatMap((service) => service.volumes ?? [])
      .map((volume) => volume.split(':')[0])
      .filter((source) => !source.startsWith('.') && !source.startsWith('/'));
    expect(mounted.sort()).toEqual(Object.keys(compose.volumes ?? {}).sort());
  });
});

describe('Dockerfile (structure only)', () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

  it('is multi-stage on node:24-bookworm-slim with npm ci, build and a non-root runtime', () => {
    expect(dockerfile).toContain('ARG NODE_IMAGE=node:24-bookworm-slim');
    expect(dockerfile.match(/^FROM \$\{NODE_IMAGE\} AS (\S+)$/gm)).toEqual([
      'FROM ${NODE_IMAGE} AS build',
      'FROM ${NODE_IMAGE} AS prod-deps',
      'FROM ${NODE_IMAGE} AS runtime',
    ]);
    expect(dockerfile).toContain('RUN npm ci --no-audit --no-fund');
    expect(dockerfile).toContain('RUN npm run build');
    expect(dockerfile).toContain('npm ci --omit=dev');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('ENTRYPOINT ["ndc-saga"]');
  });

  it('prebuilds the workflow bundle at build time and points the workers at it', () => {
    expect(dockerfile).toContain('RUN node -r @swc-node/register scripts/bundle-workflows.ts dist/workflow-bundle.js');
    expect(dockerfile).toContain(
      'RUN node -r @swc-node/register scripts/bundle-workflows.ts dist/workflow-bundle.tracing.js --tracing',
    );
    expect(dockerfile).toContain('WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js');
    expect(fs.readFileSync(path.join(ROOT, 'src', 'worker', 'worker.config.ts'), 'utf8')).toContain(
      'WORKFLOW_BUNDLE_PATH',
    );
  });

  it('copies only paths that exist in the repository', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) (\S+)$/gm)].flatMap((match) => match[1].split(/\s+/));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect([source, fs.existsSync(path.join(ROOT, source))]).toEqual([source, true]);
  });
});

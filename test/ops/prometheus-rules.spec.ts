/**
 * The alert rules of ops/prometheus/alerts.yml: valid (`promtool check rules`), their unit tests
 * pass (`promtool test rules ops/prometheus/alerts.test.yml`), every alert has a firing and a
 * non-firing case there, a summary, a description and a runbook section in docs/operations.md.
 *
 * promtool comes from Debian's `prometheus` package (.ci/run installs it). Without it the promtool
 * cases are skipped with a message, except in CI (CI=true), where its absence fails.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const RULES = path.join(ROOT, 'ops', 'prometheus', 'alerts.yml');
const RULE_TESTS = path.join(ROOT, 'ops', 'prometheus', 'alerts.test.yml');
const OPERATIONS = path.join(ROOT, 'docs', 'operations.md');

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface RuleTest {
  alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[];
}

const rules = (): AlertRule[] =>
  (parse(fs.readFileSync(RULES, 'utf8')) as { groups: { rules: AlertRule[] }[] }).groups.flatMap((g) => g.rules);

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const hasPromtool = promtool.error === undefined && promtool.status === 0;
const inCi = process.env.CI === 'true';

function run(...args: string[]): { status: number | null; output: string } {
  const r = spawnSync('promtool', args, { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('alert rules (ops/prometheus/alerts.yml)', () => {
  if (!hasPromtool) {
    it(inCi ? 'promtool is installed (CI)' : 'promtool is not installed: promtool cases skipped', () => {
      if (inCi) throw new Error('promtool is missing in CI: .ci/run installs the Debian package "prometheus"');
      console.warn('promtool not found on PATH: install Debian\'s "prometheus" package to run the alert rule tests');
    });
  } else {
    it('are valid rules (promtool check rules)', () => {
      const r = run('check', 'rules', RULES);
      expect([r.status, r.output]).toEqual([0, expect.stringContaining('SUCCESS')]);
    });

    it('pass their unit tests (promtool test rules)', () => {
      const r = run('test', 'rules', RULE_TESTS);
      expect([r.status, r.output]).toEqual([0, expect.stringContaining('SUCCESS')]);
    });
  }

  it('each has a firing and a non-firing unit test', () => {
    const tests = (parse(fs.readFileSync(RULE_TESTS, 'utf8')) as { tests: RuleTest[] }).tests;
    const cases = tests.flatMap((t) => t.alert_rule_test ?? []);
    const coverage = rules().map((rule) => {
      const mine = cases.filter((c) => c.alertname === rule.alert);
      return {
        alert: rule.alert,
        fires: mine.some((c) => c.exp_alerts.length > 0),
        stays: mine.some((c) => c.exp_alerts.length === 0),
      };
    });
    expect(coverage.filter((c) => !c.fires || !c.stays)).toEqual([]);
    expect(coverage.length).toBeGreaterThanOrEqual(15);
  });

  it('each has a severity, a summary, a description and a runbook section in docs/operations.md', () => {
    const operations = fs.readFileSync(OPERATIONS, 'utf8');
    const anchors = new Set(
      [...operations.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const problems = rules().flatMap((rule) => {
      const missing: string[] = [];
      if (!['page', 'ticket'].includes(rule.labels?.severity ?? '')) missing.push('severity');
      if ((rule.annotations?.summary ?? '') === '') missing.push('summary');
      if ((rule.annotations?.description ?? '').length < 80) missing.push('description');
      const anchor = /^docs\/operations\.md#(.+)$/.exec(rule.annotations?.runbook_url ?? '')?.[1];
      if (anchor !== rule.alert.toLowerCase() || !anchors.has(anchor))
        missing.push(`runbook section ### ${rule.alert}`);
      return missing.map((what) => `${rule.alert}: ${what}`);
    });
    expect(problems).toEqual([]);
  });
});

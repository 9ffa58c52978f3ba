/**
 * `npm run book` for batches, as a real process against the real stack (test/support/temporal-env
 * through the stack): the batch id is printed, `--key` resumes the same batch, `--attach` follows
 * it again, `--help` prints the usage to stdout and exits 0; `--hold` books to pay later, `show`
 * prints the held booking, `pay` pays it, `cancel` cancels it (the servicing commands against a fake API:
 * test/api/book-cli-servicing.spec.ts).
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fastWebhooks, startWebhookStack, type WebhookStack } from '../webhooks/webhook-stack';

const ROOT = path.resolve(__dirname, '..', '..');

function book(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'scripts/book.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run book: batches that resume', () => {
  let stack: WebhookStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startWebhookStack('book-cli', fastWebhooks(), ['AGENCY1']);
    env = {
      API_URL: stack.api.url,
      NDC_SAGA_API_KEY: stack.api.auth('AGENCY1', 'agency').slice('Bearer '.length),
      BOOK_TIMEOUT_MS: '120000',
    };
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('--help prints the usage to stdout and exits 0', async () => {
    const r = await book(['--help'], { NDC_SAGA_API_KEY: '' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage: npm run book -- \[options\] \[<intent\.json \.\.\.>\]/);
    expect(r.stdout).toContain('--attach <id>');
    expect(r.stdout).toContain('--key <key>');
  });

  it('bad usage goes to stderr with exit code 2', async () => {
    const r = await book(['--attach'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('book: --attach needs a value');
  });

  it('--batch --key prints the batch id; the same key again resumes that batch; --attach follows it', async () => {
    const first = await book(
      ['--batch', '--key', 'cli-resume-1', 'examples/one-way.json', 'examples/debit-card.json'],
      env,
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const id = 'batch:AGENCY1:cli-resume-1';
    expect(first.stdout).toContain(`→ batch of 2 submitted as ${id} (key cli-resume-1)`);
    expect(first.stdout).toContain(`batch id: ${id}`);
    expect(first.stdout.match(/✓ .*: CONFIRMED/g)).toHaveLength(2);

    const again = await book(
      ['--batch', '--key', 'cli-resume-1', 'examples/one-way.json', 'examples/debit-card.json'],
      env,
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`→ batch ${id}: already submitted with key cli-resume-1, following it`);
    // The same two bookings, not new ones.
    const refs = (out: string) => [...out.matchAll(/booking reference ([A-Z0-9]{6})/g)].map((m) => m[1]).sort();
    expect(refs(again.stdout)).toEqual(refs(first.stdout));

    const attached = await book(['--attach', id], env);
    expect(attached.code).toBe(0);
    expect(refs(attached.stdout)).toEqual(refs(first.stdout));
  });

  it('--hold books HELD with what is due and by when; show prints it; pay pays it with the test card; cancel cancels it', async () => {
    const id = 'booking:AGENCY1:cli-hold-1';
    const held = await book(['--hold', '--key', 'cli-hold-1'], env);
    expect(held.stderr).toBe('');
    expect(held.code).toBe(0);
    const line =
      /✓ one-way\.json: HELD at ([A-Z0-9]{2}), booking reference ([A-Z0-9]{6}), (payment: due \d+\.\d{2} GBP, due by \S+, price guaranteed until \S+) \(order (\S+), id (\S+)\)/.exec(
        held.stdout,
      );
    expect(line).not.toBeNull();
    const [, airline, reference, payment, orderId, heldId] = line!;
    expect(heldId).toBe(id);
    expect(held.stdout).toContain(`  one-way.json: pay it with npm run book -- pay ${id}\n`);

    const shown = await book(['show', id], env);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^booking ${id}: HELD at ${airline}, booking reference ${reference}, total \\d+\\.\\d{2} GBP \\(order ${orderId}\\)$`,
      ),
    );
    expect(lines[1]).toBe(`  ${payment}`);
    expect(lines[2]).toBe('  flights:');

    const paid = await book(['pay', id], env);
    expect(paid.stderr).toBe('');
    expect(paid.code).toBe(0);
    const amount = /payment: due (\S+ GBP)/.exec(payment)![1];
    expect(paid.stdout).toMatch(
      new RegExp(
        `^✓ ${id}: CONFIRMED, booking reference ${reference}, total ${amount}\n  ${id}: \\S+ paid, difference ${amount}, total ${amount}\n  ${id}: payment: paid ${amount}, due by \\S+, price guaranteed until \\S+, paid at \\S+\n$`,
      ),
    );

    const cancelled = await book(['cancel', id], env);
    expect(cancelled.stderr).toBe('');
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(new RegExp(`✓ ${id}: CANCELLED, cancellation cancelled`));
  });
});

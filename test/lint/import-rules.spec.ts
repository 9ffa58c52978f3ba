/**
 * The lint rules that keep the code base's shape (eslint.config.js): no import cycle anywhere,
 * no import from a higher floor into a lower one. Each is shown failing on a deliberate probe,
 * written for the test into a folder of the product and removed after.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = path.resolve(__dirname, '..', '..');
const PROBE = path.join(ROOT, 'src', 'common', `__lint_probe_${process.pid}`);

function write(name: string, text: string): string {
  const file = path.join(PROBE, name);
  fs.writeFileSync(file, text);
  return file;
}

/** The rules the repository's own `eslint` (as `npm run lint` runs it) reports for `files`. */
async function ruleIdsOf(files: string[]): Promise<string[]> {
  const eslint = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const run = spawnSync(process.execPath, [eslint, '--format', 'json', ...files], { cwd: ROOT, encoding: 'utf8' });
  const results = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return results.flatMap((result) => result.messages.map((message) => message.ruleId ?? message.message)).sort();
}

describe('lint rules of the code base', () => {
  beforeAll(() => fs.mkdirSync(PROBE, { recursive: true }));
  afterAll(() => fs.rmSync(PROBE, { recursive: true, force: true }));

  it('fails on an import cycle', async () => {
    const a = write('a.ts', "import { b } from './b';\nexport const a = (): number => b() + 1;\n");
    const b = write('b.ts', "import { a } from './a';\nexport const b = (): number => (a.length > 0 ? 1 : 0);\n");
    expect(await ruleIdsOf([a, b])).toEqual(['import-x/no-cycle', 'import-x/no-cycle']);
  });

  it('fails on an import from a higher floor (src/common from src/booking)', async () => {
    const up = write(
      'up.ts',
      "import type { BookingIntent } from '../../booking/booking.model';\nexport type Up = BookingIntent;\n",
    );
    expect(await ruleIdsOf([up])).toEqual(['import-x/no-restricted-paths']);
  });

  it('passes an import from a lower floor', async () => {
    const down = write('down.ts', "import { compare } from '../decimal';\nexport const down = compare('1', '2');\n");
    expect(await ruleIdsOf([down])).toEqual([]);
  });
});

/**
 * Validates XML against the vendored NDC 17.2 schemas (`schemas/ndc-17.2/xsd/<Root>.xsd`)
 * with libxml2's `xmllint` (`/usr/bin/xmllint`, else `xmllint` on PATH, or `$XMLLINT`).
 * Note: libxml2 does not report IDREFs that point nowhere; check those separately.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const XSD_DIR = join(__dirname, '..', '..', 'schemas', 'ndc-17.2', 'xsd');

function xmllintBinary(): string {
  if (process.env.XMLLINT) return process.env.XMLLINT;
  return existsSync('/usr/bin/xmllint') ? '/usr/bin/xmllint' : 'xmllint';
}

export interface XsdResult {
  valid: boolean;
  /** xmllint's messages (one per line), empty when valid. */
  errors: string[];
}

/** Validates `xml` against the schema of message `root` (e.g. `AirShoppingRQ`). */
export function validateXsd(xml: string, root: string): XsdResult {
  const xsd = join(XSD_DIR, `${root}.xsd`);
  if (!existsSync(xsd)) throw new Error(`no schema for ${root}: ${xsd}`);
  const r = spawnSync(xmllintBinary(), ['--noout', '--nonet', '--schema', xsd, '-'], {
    input: xml,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw new Error(`cannot run xmllint: ${r.error.message}`);
  if (r.status === 0) return { valid: true, errors: [] };
  const errors = r.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^- fails to validate$/.test(l));
  return { valid: false, errors: errors.length ? errors : [`xmllint exited with ${r.status}`] };
}

/**
 * Validates many documents of message `root` with one xmllint run (the schema is parsed once):
 * one result per document, in order. Much faster than {@link validateXsd} per document.
 */
export function validateXsdMany(xmls: readonly string[], root: string): XsdResult[] {
  const xsd = join(XSD_DIR, `${root}.xsd`);
  if (!existsSync(xsd)) throw new Error(`no schema for ${root}: ${xsd}`);
  if (xmls.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'ndc-xsd-'));
  try {
    const files = xmls.map((xml, i) => {
      const file = join(dir, `${i}.xml`);
      writeFileSync(file, xml);
      return file;
    });
    const r = spawnSync(xmllintBinary(), ['--noout', '--nonet', '--schema', xsd, ...files], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (r.error) throw new Error(`cannot run xmllint: ${r.error.message}`);
    const byFile = new Map<string, string[]>(files.map((f) => [f, []]));
    const valid = new Set<string>();
    for (const line of r.stderr.split('\n')) {
      const file = files.find((f) => line.startsWith(`${f}:`) || line.startsWith(`${f} `));
      if (file === undefined) continue;
      if (line === `${file} validates`) valid.add(file);
      else if (line !== `${file} fails to validate`) byFile.get(file)!.push(line.trim());
    }
    return files.map((f) =>
      valid.has(f)
        ? { valid: true, errors: [] }
        : { valid: false, errors: byFile.get(f)!.length ? byFile.get(f)! : ['xmllint: not valid'] },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Jest helper: fails with xmllint's messages when `xml` is not valid for `root`. */
export function expectValidXsd(xml: string, root: string): void {
  const r = validateXsd(xml, root);
  if (!r.valid) throw new Error(`XML is not valid against ${root}.xsd:\n${r.errors.join('\n')}`);
}

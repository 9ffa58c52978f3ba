/**
 * Validates XML against the vendored NDC 17.2 schemas (`schemas/ndc-17.2/xsd/<Root>.xsd`)
 * with libxml2's `xmllint` (`/usr/bin/xmllint`, else `xmllint` on PATH, or `$XMLLINT`).
 * Note: libxml2 does not report IDREFs that point nowhere; check those separately.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/** Jest helper: fails with xmllint's messages when `xml` is not valid for `root`. */
export function expectValidXsd(xml: string, root: string): void {
  const r = validateXsd(xml, root);
  if (!r.valid) throw new Error(`XML is not valid against ${root}.xsd:\n${r.errors.join('\n')}`);
}

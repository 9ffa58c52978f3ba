/**
 * A real browser for e2e tests: Debian's `chromium` (apt; `$CHROMIUM_PATH` to use another binary)
 * driven by playwright-core, which never downloads a browser. Headless, sandbox off (containers),
 * no background networking, and a fresh profile in a temporary folder removed on close.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** The Chromium binary: `$CHROMIUM_PATH`, else `/usr/bin/chromium`. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `no Chromium at ${path}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  return path;
}

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh profile; `javaScriptEnabled: false` proves a page works without scripts. */
export async function launchBrowser(options: { javaScriptEnabled?: boolean } = {}): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'ndc-saga-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

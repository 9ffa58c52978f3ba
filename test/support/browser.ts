/**
 * A real browser for e2e tests: Debian's `chromium` (apt; `$CHROMIUM_PATH` to use another binary)
 * driven by playwright-core, which never downloads a browser. Headless, sandbox off (containers),
 * no background networking, and a fresh profile in a temporary folder removed on close.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

export interface AgencyPages {
  /** `http://127.0.0.1:<port>`: `/done...` shows `<h1 id="where">done</h1>`, anything else `fail`. */
  url: string;
  close(): Promise<void>;
}

/** The agency's own return pages (TermURL, FailURL), where the browser lands after 3-D Secure. */
export async function startAgencyPages(): Promise<AgencyPages> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>agency</title><h1 id="where">${req.url?.startsWith('/done') ? 'done' : 'fail'}</h1>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * `npm run ui:screenshots`: screenshots of the Temporal UI of a running `npm start` (the dev
 * server's UI, TEMPORAL_UI_URL default http://localhost:8233) for docs/operations.md ("Saved
 * views"), into docs/images/ui/: the list for each saved-view query ops use and the page of a
 * booking waiting for approval and of a confirmed one (summary and current details).
 *
 * Headless Chromium from the system (CHROMIUM, default /usr/bin/chromium; Debian's `chromium`),
 * driven by playwright-core with a fresh profile and no background traffic. It needs bookings in
 * several statuses in the namespace (TEMPORAL_ADDRESS, default 127.0.0.1:7233; TEMPORAL_NAMESPACE):
 * book some first (`npm run book`, an intent with a low `selection.maxTotal`, an escalation with
 * ORDER_UNSETTLED_POLICY=escalate and an OrderCreate fault). Views whose query finds nothing are
 * reported and skipped. UI_SCREENSHOT_AIRLINE (default ZZ) is the airline of the by-airline view;
 * docs/images/ui/by-airline.png shows YY with bookings at both ZZ and YY in the namespace.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection, Client } from '@temporalio/client';
import { chromium, type Page } from 'playwright-core';
import { createDataConverter } from '../src/temporal';
import { PROJECT_ROOT } from './temporal-cli';

/** Where the PNGs go. */
export const SCREENSHOT_DIR = path.join(PROJECT_ROOT, 'docs', 'images', 'ui');

/** Flags of the headless browser: no GPU, no sandbox (root in CI), nothing fetched in the background. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One screenshot: a list query, or a booking's page. */
export interface View {
  file: string;
  title: string;
  query?: string;
  workflowId?: string;
  runId?: string;
}

/** The saved-view queries of docs/operations.md. */
export function savedViews(pnr: string | undefined, agency: string, airline: string): View[] {
  return [
    {
      file: 'awaiting-approval.png',
      title: 'Waiting for a price approval',
      query: 'BookingStatus="AWAITING_APPROVAL"',
    },
    { file: 'escalated.png', title: 'Escalated: need a person', query: 'BookingStatus="ESCALATED"' },
    { file: 'by-agency.png', title: `One agency's bookings`, query: `AgencyId="${agency}"` },
    { file: 'by-airline.png', title: `One airline's bookings`, query: `Airline="${airline}"` },
    ...(pnr !== undefined
      ? [{ file: 'by-pnr.png', title: 'A booking by its PNR', query: `BookingReference="${pnr}"` }]
      : []),
  ];
}

async function firstMatch(client: Client, query: string) {
  for await (const wf of client.workflow.list({ query, pageSize: 1 })) return wf;
  return undefined;
}

/** Search attribute columns shown in the workflow lists (with the status, id and start time). */
export const LIST_COLUMNS = ['BookingStatus', 'BookingReference', 'AgencyId', 'Airline', 'Route'];

/** Makes the workflow list show the booking search attributes instead of run id, type, start and end (kept in the profile). */
async function configureColumns(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByTestId('workflows-summary-table-configuration-button').click();
  for (const column of ['Run ID', 'Type', 'End'])
    await page.getByTestId(`orderable-list-item-${column}-remove-button`).click();
  for (const column of LIST_COLUMNS) await page.getByTestId(`orderable-list-item-${column}-add-button`).click();
  await page.getByTestId('drawer-close-button').click();
}

/** Resolves once `text` shows in the page or one of its frames (the UI renders markdown in iframes). */
async function textShown(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (
        (await frame
          .getByText(text, { exact: false })
          .count()
          .catch(() => 0)) > 0
      )
        return;
    }
    if (Date.now() > deadline) throw new Error(`"${text}" did not show on ${page.url()} within ${timeoutMs} ms`);
    await page.waitForTimeout(250);
  }
}

/** Opens `url` and waits until the UI shows `ready` (the workflow id of a list, a line of the details). */
async function shoot(page: Page, url: string, file: string, ready: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await textShown(page, ready);
  // Some pages keep polling; a page quiet for a moment has its decoded payloads in place.
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: file, type: 'png' });
}

async function main(): Promise<void> {
  const ui = (process.env.TEMPORAL_UI_URL || 'http://localhost:8233').replace(/\/$/, '');
  const namespace = process.env.TEMPORAL_NAMESPACE || 'default';
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS || '127.0.0.1:7233' });
  const client = new Client({ connection, namespace, dataConverter: createDataConverter() });
  const confirmed = await firstMatch(client, 'WorkflowType="bookingWorkflow" AND BookingStatus="CONFIRMED"');
  const awaiting = await firstMatch(client, 'WorkflowType="bookingWorkflow" AND BookingStatus="AWAITING_APPROVAL"');
  const pnr = confirmed?.searchAttributes?.BookingReference?.[0] as string | undefined;
  const agency = (confirmed?.searchAttributes?.AgencyId?.[0] as string | undefined) ?? 'AGENCY1';
  const views: View[] = [
    ...savedViews(pnr, agency, process.env.UI_SCREENSHOT_AIRLINE || 'ZZ'),
    ...[awaiting, confirmed].flatMap((wf, i) =>
      wf !== undefined ? [{ file: i === 0 ? 'booking-awaiting.png' : 'booking-confirmed.png', title: '', ...wf }] : [],
    ),
  ];
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1600, height: 820 },
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await configureColumns(page, `${ui}/namespaces/${namespace}/workflows`);
    for (const view of views) {
      const file = path.join(SCREENSHOT_DIR, view.file);
      if (view.query !== undefined) {
        const match = await firstMatch(client, view.query);
        if (match === undefined) {
          process.stdout.write(`skipped ${view.file}: no workflow matches ${view.query}\n`);
          continue;
        }
        const url = `${ui}/namespaces/${namespace}/workflows?query=${encodeURIComponent(view.query)}`;
        await shoot(page, url, file, match.workflowId);
      } else {
        // The "User Metadata" tab: summary, details and current details (the metadata query).
        const url = `${ui}/namespaces/${namespace}/workflows/${encodeURIComponent(view.workflowId!)}/${view.runId}/user-metadata`;
        await shoot(page, url, file, view.file === 'booking-confirmed.png' ? 'PNR' : 'Waiting for');
      }
      process.stdout.write(`${path.relative(PROJECT_ROOT, file)}\n`);
    }
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
    await connection.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`ui-screenshots: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
}

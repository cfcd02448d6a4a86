/**
 * The JavaScript a first visit to / downloads: every script response until the page has settled,
 * each gzipped here at level 9 so the figure does not depend on how the server compressed it.
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Response } from '@playwright/test';
import { kilobytes, printTable } from './table';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const goalKb = 130;
const loadTimeoutMs = 60_000;
const quietMs = 2000;

export interface ScriptFile {
  path: string;
  encoding: string;
  sentBytes: number;
  rawBytes: number;
  gzipBytes: number;
}

export async function benchBundle(shopUrl: string): Promise<ScriptFile[]> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'], timeout: loadTimeoutMs });
  try {
    const page = await browser.newPage();
    const measured: Array<Promise<ScriptFile | undefined>> = [];
    page.on('response', (response) => measured.push(measure(response)));
    const settled = watchNetwork(page);
    await page.goto(`${shopUrl}/`, { waitUntil: 'load', timeout: loadTimeoutMs });
    await settled.untilQuiet(Date.now() + loadTimeoutMs);
    const files = new Map<string, ScriptFile>();
    for (const file of await Promise.all(measured)) if (file) files.set(file.path, file);
    return [...files.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
  } finally {
    await browser.close();
  }
}

/**
 * Playwright's networkidle (500 ms without requests) can come while the app's script is still
 * running on a slow machine, before it asks for its data and the page's lazy chunk. Settled here
 * means no request in flight for two seconds, and still none once the main thread has been idle.
 */
function watchNetwork(page: Page) {
  let inFlight = 0;
  let lastActivity = Date.now();
  // Streams stay open for the life of the page: they never let it settle.
  const counted = (resourceType: string) => resourceType !== 'eventsource' && resourceType !== 'websocket';
  page.on('request', (request) => {
    if (!counted(request.resourceType())) return;
    inFlight += 1;
    lastActivity = Date.now();
  });
  const finished = (request: { resourceType(): string }) => {
    if (!counted(request.resourceType())) return;
    inFlight -= 1;
    lastActivity = Date.now();
  };
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);
  const quiet = () => inFlight <= 0 && Date.now() - lastActivity >= quietMs;
  return {
    async untilQuiet(deadline: number) {
      while (Date.now() < deadline) {
        if (quiet()) {
          await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
          if (quiet()) return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`/ was still loading after ${loadTimeoutMs / 1000} s`);
    },
  };
}

async function measure(response: Response): Promise<ScriptFile | undefined> {
  const headers = response.headers();
  if (!/javascript/.test(headers['content-type'] ?? '') || response.status() !== 200) return undefined;
  const body = await response.body();
  const sizes = await response.request().sizes();
  return {
    path: new URL(response.url()).pathname,
    encoding: headers['content-encoding'] ?? 'none',
    sentBytes: sizes.responseBodySize,
    rawBytes: body.length,
    gzipBytes: gzipSync(body, { level: 9 }).length,
  };
}

export function printBundle(files: ScriptFile[]): void {
  const total = (pick: (file: ScriptFile) => number) => files.reduce((sum, file) => sum + pick(file), 0);
  const gzipTotal = total((f) => f.gzipBytes);
  console.log(`\nJavaScript loaded by / (first visit, until no request for ${quietMs / 1000} s; kB = 1000 bytes)\n`);
  printTable(
    ['file', 'encoding', 'sent kB', 'raw kB', 'gzip-9 kB'],
    [
      ...files.map((f) => [f.path, f.encoding, kilobytes(f.sentBytes), kilobytes(f.rawBytes), kilobytes(f.gzipBytes)]),
      ['total', '', kilobytes(total((f) => f.sentBytes)), kilobytes(total((f) => f.rawBytes)), kilobytes(gzipTotal)],
    ],
  );
  console.log(`\nJS loaded by / : ${files.length} files, ${kilobytes(gzipTotal)} KB gzipped (goal: at most ${goalKb} KB)`);
}

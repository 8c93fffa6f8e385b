/**
 * Page performance of the explorer in Debian's Chromium (Playwright, /usr/bin/chromium), per page: LCP, first-load
 * JS gzipped, HTML bytes, and for the dashboard the block-to-screen delay.
 *
 * Usage:
 *   npx next build && npx tsx bench/ui.ts                 starts `next start` on --port (default 3290) against a
 *                                                           fresh embedded devnet (in-memory database, no persistence)
 *                                                           and stops it at the end
 *   npx tsx bench/ui.ts --url http://127.0.0.1:3000         measures a running server instead (started by you)
 * Options: --runs 3 (cold loads per page; the median is printed), --blocks 60 (blocks timed for block-to-screen, at
 * least 50), --pages /,/mempool (only these page names from PAGES below; default all), --screenshots DIR (a full-page
 * phone screenshot of each page in light and dark, saved there).
 *
 * Figures:
 *   TTFB           navigation timing responseStart (server time to first byte), to read LCP against.
 *   LCP            the last `largest-contentful-paint` entry (PerformanceObserver, buffered) 1 s after `load`, in a
 *                  fresh browser context (cold cache) per run, on a laptop (1366 × 900) and on a phone (390 × 844, 3×,
 *                  touch, mobile viewport).
 *   first-load JS  every script response the page fetched up to `load`, each body gzip-compressed (zlib default
 *                  level, as `next start` serves it), summed.
 *   HTML           the document's bytes as the browser received them (the server sends it uncompressed), streamed
 *                  parts included; the goal for every page, /docs and /console included, is under 200 KB.
 *   block-to-screen  for each block the node adds while the dashboard is open: the moment the dashboard first
 *                  painted an element for it (a MutationObserver in the page notes the element, the next animation
 *                  frame stamps Date.now()) minus `receivedAt`, the server's Date.now() when its live hub read the block's
 *                  event from the event log (read from the block event itself; the indexer's commit comes before, so
 *                  mined-to-screen below is the end-to-end figure). Same machine, same clock. The
 *                  baseline, measured in the same run, is the stream alone: when this script's own SSE client
 *                  received the same event, minus `receivedAt`. Also printed, for information: paint time minus the
 *                  block's header timestamp (mined-to-screen, includes the simulated miners' network delay).
 *   DAG frame rate  the full-screen BlockDAG (/dag at 1366 × 900) for 10 s while blocks arrive: animation frames a
 *                  second and the p95 frame interval, with the blocks drawn in those seconds; the baseline, measured
 *                  right after on the same page, is the view paused (the same DOM, nothing updating).
 * Goals: LCP ≤ 1 s, first-load JS ≤ 200 KB gzipped, block-to-screen p95 ≤ 1 s, the DAG near the display's 60 frames/s.
 *
 * Pages are listed in PAGES: each names a path, possibly built from live chain data (a recent block, transaction,
 * address, DAA range, a token once one is deployed) and the status it should answer; a page answering another status
 * is skipped with a note.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { explorerApiPath, LIVE_STREAM_PATH, pages } from '../lib/web/urls';
import { assertPortFree, percentile, sleep, startApp, stopApp, waitForHealth, type AppServer } from './support/app-server';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    port: { type: 'string', default: '3290' },
    runs: { type: 'string', default: '3' },
    blocks: { type: 'string', default: '60' },
    pages: { type: 'string' },
    screenshots: { type: 'string' },
  },
});

const runs = Math.max(1, Number(values.runs));
const blocksWanted = Math.max(50, Number(values.blocks));

interface ChainSample {
  sink: string;
  virtualDaaScore: bigint;
  transactionId: string | undefined;
  address: string | undefined;
  ticker: string | undefined;
  covenantId: string | undefined;
}

interface PageSpec {
  name: string;
  path: (sample: ChainSample) => string | undefined;
  /** The status the page answers (200 unless said). */
  status?: number;
}

/** Add pages here; `path` returns undefined when the chain has nothing to show yet. */
const PAGES: PageSpec[] = [
  { name: '/', path: () => pages.home() },
  { name: '/blocks/<hash>', path: (sample) => pages.block(sample.sink) },
  { name: '/tx/<id>', path: (sample) => (sample.transactionId === undefined ? undefined : pages.transaction(sample.transactionId)) },
  { name: '/address/<addr>', path: (sample) => (sample.address === undefined ? undefined : pages.address(sample.address)) },
  {
    name: '/daa/<start>/<end>',
    path: (sample) => (sample.virtualDaaScore < 30n ? undefined : pages.daaRange(sample.virtualDaaScore - 30n, sample.virtualDaaScore - 20n)),
  },
  { name: '/dag', path: () => pages.dag() },
  { name: '/mempool', path: () => pages.mempool() },
  { name: '/fees', path: () => pages.fees() },
  { name: '/statistics', path: () => pages.statistics() },
  { name: '/tokens', path: () => pages.tokens() },
  { name: '/tokens/<ticker>', path: (sample) => (sample.ticker === undefined ? undefined : pages.token(sample.ticker)) },
  { name: '/covenants', path: () => pages.covenants() },
  { name: '/covenants/<id>', path: (sample) => (sample.covenantId === undefined ? undefined : pages.covenant(sample.covenantId)) },
  { name: '/wallet', path: () => pages.wallet() },
  { name: '/broadcast', path: () => pages.broadcast() },
  { name: '/console', path: () => pages.console() },
  { name: '/docs', path: () => pages.docs() },
  { name: '/search?q=…', path: () => pages.search('nothing-like-this') },
  { name: '404', path: () => '/no-such-page', status: 404 },
];

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

function median(list: number[]): number {
  return percentile([...list].sort((a, b) => a - b), 50);
}

async function explorer<T>(base: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface SampleBlock {
  transactions: { outputs: { verboseData?: { scriptPublicKeyAddress: string } }[]; verboseData?: { transactionId: string } }[];
}

async function sampleChain(base: string): Promise<ChainSample> {
  const info = await explorer<{ sink: string; virtualDaaScore: string }>(base, explorerApiPath('GET /v1/rpc/getBlockDagInfo'));
  const { block } = await explorer<{ block: SampleBlock }>(base, explorerApiPath('POST /v1/rpc/getBlock'), {
    hash: info.sink,
    includeTransactions: true,
  });
  const transaction = block.transactions[1] ?? block.transactions[0];
  const { tokens } = await explorer<{ tokens: { ticker: string }[] }>(base, explorerApiPath('GET /v1/tokens/tk20', {}, { limit: 1 }));
  const { covenants } = await explorer<{ covenants: { covenantId: string }[] }>(base, explorerApiPath('GET /v1/covenants', {}, { limit: 1 }));
  return {
    sink: info.sink,
    virtualDaaScore: BigInt(info.virtualDaaScore),
    transactionId: transaction?.verboseData?.transactionId,
    address: block.transactions[0]?.outputs[0]?.verboseData?.scriptPublicKeyAddress,
    ticker: tokens[0]?.ticker,
    covenantId: covenants[0]?.covenantId,
  };
}

interface LoadFigures {
  status: number;
  ttfbMs: number;
  lcpMs: number;
  jsGzipBytes: number;
  scripts: number;
  htmlBytes: number;
}

/** A laptop, and a phone as Chromium emulates one (touch, 3× pixels, the mobile viewport meta honoured). */
const SCREENS = {
  desktop: { viewport: { width: 1366, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
} as const;
type Screen = keyof typeof SCREENS;

async function loadOnce(browser: Browser, url: string, screen: Screen): Promise<LoadFigures> {
  const context = await browser.newContext(SCREENS[screen]);
  const page = await context.newPage();
  const bodies: Promise<number>[] = [];
  let loaded = false;
  page.on('response', (response) => {
    if (loaded || response.request().resourceType() !== 'script') return;
    bodies.push(response.body().then((body) => gzipSync(body).length, () => 0));
  });
  const response = await page.goto(url, { waitUntil: 'load' });
  loaded = true;
  const htmlBytes = response === null ? 0 : (await response.body()).length;
  await sleep(1_000);
  const lcpMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries.at(-1)?.startTime ?? Number.NaN);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(Number.NaN), 2_000);
      }),
  );
  const ttfbMs = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStart);
  const sizes = await Promise.all(bodies);
  await context.close();
  return {
    status: response?.status() ?? 0,
    ttfbMs,
    lcpMs,
    jsGzipBytes: sizes.reduce((sum, size) => sum + size, 0),
    scripts: sizes.length,
    htmlBytes,
  };
}

interface StreamBlock {
  hash: string;
  timestamp: number;
  receivedAt: number;
  /** When this script's SSE client read the event. */
  readAt: number;
}

/** Reads the live stream in this process, keeping the block events that were not part of the connect replay. */
function watchStream(base: string, since: number, into: Map<string, StreamBlock>): AbortController {
  const controller = new AbortController();
  void (async () => {
    const response = await fetch(`${base}${LIVE_STREAM_PATH}`, { signal: controller.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const readAt = Date.now();
      buffer += value;
      const messages = buffer.split('\n\n');
      buffer = messages.pop() ?? '';
      for (const message of messages) {
        const lines = message.split('\n');
        if (lines[0] !== 'event: block') continue;
        const data = JSON.parse((lines[1] ?? '').slice('data: '.length)) as Omit<StreamBlock, 'readAt'>;
        if (data.receivedAt >= since) into.set(data.hash, { hash: data.hash, timestamp: data.timestamp, receivedAt: data.receivedAt, readAt });
      }
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) console.error(`stream reader: ${String(error)}`);
  });
  return controller;
}

async function blockToScreen(browser: Browser, base: string): Promise<void> {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  await page.addInitScript(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { __blockSeen: Record<string, number> }).__blockSeen = seen;
    new MutationObserver((mutations) => {
      const fresh: string[] = [];
      for (const mutation of mutations) {
        for (const node of mutation.addedNodes) {
          if (!(node instanceof Element)) continue;
          for (const element of [node, ...node.querySelectorAll('[data-hash],[data-block-hash]')]) {
            const hash = element.getAttribute('data-hash') ?? element.getAttribute('data-block-hash');
            if (hash !== null && seen[hash] === undefined) fresh.push(hash);
          }
        }
      }
      if (fresh.length === 0) return;
      requestAnimationFrame(() => {
        const at = Date.now();
        for (const hash of fresh) seen[hash] ??= at;
      });
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto(`${base}${pages.home()}`, { waitUntil: 'load' });
  await page.locator('[data-live-status="live"]').waitFor({ timeout: 30_000 });
  const since = Date.now();
  const streamed = new Map<string, StreamBlock>();
  const reader = watchStream(base, since, streamed);
  const deadline = Date.now() + 120_000;
  let seen: Record<string, number> = {};
  let matched: StreamBlock[] = [];
  while (Date.now() < deadline) {
    await sleep(1_000);
    seen = await page.evaluate(() => (window as unknown as { __blockSeen: Record<string, number> }).__blockSeen);
    matched = [...streamed.values()].filter((block) => seen[block.hash] !== undefined);
    if (matched.length >= blocksWanted) break;
  }
  reader.abort();
  await context.close();
  const toScreen = matched.map((block) => seen[block.hash]! - block.receivedAt).sort((a, b) => a - b);
  const stream = matched.map((block) => block.readAt - block.receivedAt).sort((a, b) => a - b);
  const mined = matched.map((block) => seen[block.hash]! - block.timestamp).sort((a, b) => a - b);
  const missing = streamed.size - matched.length;
  const line = (label: string, sorted: number[]) =>
    `  ${label.padEnd(34)} p50 ${percentile(sorted, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(sorted, 95).toFixed(0).padStart(5)} ms   max ${(sorted.at(-1) ?? Number.NaN).toFixed(0).padStart(5)} ms`;
  console.log(`\nblock-to-screen on / over ${matched.length} blocks (${missing} streamed blocks not painted in time):`);
  console.log(line('stream only (baseline, SSE client)', stream));
  console.log(line('block-to-screen (goal p95 ≤ 1000)', toScreen));
  console.log(line('mined-to-screen (header timestamp)', mined));
  if (matched.length < 50) console.log('  fewer than 50 blocks matched: figures are not representative');
}

const FRAME_WINDOW_MS = 10_000;

interface FrameFigures {
  framesPerSecond: number;
  p95IntervalMs: number;
  blocksDrawn: number;
}

/**
 * Animation frames over FRAME_WINDOW_MS in the page, and how many new block nodes appeared meanwhile. The script is
 * text: tsx names the functions it compiles with a helper the page does not have.
 */
async function frameFigures(page: Page): Promise<FrameFigures> {
  return page.evaluate(`new Promise((resolve) => {
    const hashes = () => [...document.querySelectorAll('svg a[data-hash]')].map((node) => node.getAttribute('data-hash'));
    const seen = new Set(hashes());
    let drawn = 0;
    const observer = new MutationObserver(() => {
      for (const hash of hashes()) if (!seen.has(hash)) { seen.add(hash); drawn += 1; }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const stamps = [];
    const started = performance.now();
    const tick = (now) => {
      stamps.push(now);
      if (now - started < ${FRAME_WINDOW_MS}) { requestAnimationFrame(tick); return; }
      observer.disconnect();
      const intervals = stamps.slice(1).map((stamp, index) => stamp - stamps[index]).sort((a, b) => a - b);
      resolve({
        framesPerSecond: (stamps.length - 1) / ((stamps[stamps.length - 1] - stamps[0]) / 1000),
        p95IntervalMs: intervals[Math.floor(intervals.length * 0.95)] ?? 0,
        blocksDrawn: drawn,
      });
    };
    requestAnimationFrame(tick);
  })`);
}

/** Full-page screenshots of one page on the phone, in the light and the dark theme (the system's scheme, which the theme follows by default). */
async function screenshot(browser: Browser, url: string, directory: string, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ ...SCREENS.phone, colorScheme });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.locator('[data-live-status="live"]').waitFor({ timeout: 20_000 }).catch(() => undefined);
    await sleep(1_500);
    const file = `${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}-${colorScheme}.png`;
    await page.screenshot({ path: join(directory, file), fullPage: true });
    await context.close();
  }
}

async function dagFrameRate(browser: Browser, base: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${base}${pages.dag()}`);
    await page.locator('svg a[data-hash]').first().waitFor({ timeout: 30_000 });
    const live = await frameFigures(page);
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await frameFigures(page);
    const line = (label: string, figures: FrameFigures) =>
      `${label.padEnd(28)} ${figures.framesPerSecond.toFixed(1).padStart(6)} frames/s, p95 frame interval ${figures.p95IntervalMs.toFixed(1)} ms, ${figures.blocksDrawn} blocks drawn`;
    console.log('');
    console.log(`full-screen BlockDAG, ${FRAME_WINDOW_MS / 1_000} s each`);
    console.log(line('/dag live', live));
    console.log(line('/dag paused (baseline)', paused));
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const port = Number(values.port);
  if (values.url === undefined) await assertPortFree(port);
  const server: AppServer | undefined =
    values.url === undefined
      ? startApp(port, 'ui', { DATABASE_URL: 'memory://', DEVNET_PERSIST: 'false', DEVNET_SEED: 'bench-ui' })
      : undefined;
  const base = values.url ?? `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    await waitForHealth(base, server?.process);
    let sample = await sampleChain(base);
    for (let attempt = 0; attempt < 30 && sample.transactionId === undefined; attempt++) {
      await sleep(1_000);
      sample = await sampleChain(base);
    }
    const wanted = values.pages?.split(',').map((name) => name.trim());
    console.log(`UI bench against ${base}, ${runs} cold load(s) per page, medians`);
    console.log('desktop 1366 × 900; phone 390 × 844 at 3× with touch');
    console.log(
      `${'page'.padEnd(22)} ${'TTFB ms'.padStart(8)} ${'LCP ms'.padStart(8)} ${'phone LCP'.padStart(10)} ${'JS gz KB'.padStart(9)} ${'scripts'.padStart(8)} ${'HTML KB'.padStart(8)}  goals: LCP ≤ 1000 ms, JS ≤ 200 KB, HTML < 200 KB`,
    );
    if (values.screenshots !== undefined) mkdirSync(values.screenshots, { recursive: true });
    for (const spec of PAGES) {
      if (wanted !== undefined && !wanted.includes(spec.name)) continue;
      sample = await sampleChain(base);
      const path = spec.path(sample);
      if (path === undefined) {
        console.log(`${spec.name.padEnd(22)} skipped: no chain data for it yet`);
        continue;
      }
      const figures: LoadFigures[] = [];
      const phoneFigures: LoadFigures[] = [];
      for (let run = 0; run < runs; run++) {
        figures.push(await loadOnce(browser, `${base}${path}`, 'desktop'));
        phoneFigures.push(await loadOnce(browser, `${base}${path}`, 'phone'));
      }
      const unexpected = figures.find((figure) => figure.status !== (spec.status ?? 200));
      if (unexpected !== undefined) {
        console.log(`${spec.name.padEnd(22)} skipped: ${path} answers ${unexpected.status}`);
        continue;
      }
      const ttfb = median(figures.map((figure) => figure.ttfbMs));
      const lcp = median(figures.map((figure) => figure.lcpMs));
      const phoneLcp = median(phoneFigures.map((figure) => figure.lcpMs));
      const js = median(figures.map((figure) => figure.jsGzipBytes)) / 1024;
      const html = median(figures.map((figure) => figure.htmlBytes)) / 1024;
      const flag = Math.max(lcp, phoneLcp) <= 1000 && js <= 200 && html < 200 ? '' : '  over goal';
      console.log(
        `${spec.name.padEnd(22)} ${ttfb.toFixed(0).padStart(8)} ${lcp.toFixed(0).padStart(8)} ${phoneLcp.toFixed(0).padStart(10)} ${js.toFixed(1).padStart(9)} ${String(figures[0]!.scripts).padStart(8)} ${html.toFixed(1).padStart(8)}${flag}`,
      );
      if (values.screenshots !== undefined) await screenshot(browser, `${base}${path}`, values.screenshots, spec.name);
    }
    if (wanted === undefined || wanted.includes('/')) await blockToScreen(browser, base);
    if (wanted === undefined || wanted.includes('/dag')) await dagFrameRate(browser, base);
  } finally {
    await browser.close();
    if (server !== undefined) await stopApp(server);
  }
}

await main();

// The page benchmark (#17): loads a built page in fresh headless Chromium contexts, interleaving
// pages and conditions run by run, and prints medians and ranges of
//   transfer    bytes over the wire before the first result, and in all once the page is idle
//   fcp         first contentful paint
//   result      the first result on screen: the paint of the element carrying
//               `elementtiming` (Element Timing), or the start of the frame after the first one
//               holding the result selector, whichever is earlier
//   live        the WASM mounted (the `headroom-live` mark; Headroom only)
//   input       an input change until it is ready to paint: value set and `input` dispatched,
//               the handlers and the reactive updates they queue run, style and layout forced
//               (median of 6 changes per load)
//   input_frame the same change until the frame that shows it has been produced: bounded below
//               by the display's frame interval (16.7 ms at 60 Hz), so it says how many frames
//               an input costs (median of 6)
// under two conditions: as is, and slowed (CPU 4× slower, 1.6 Mbps down / 150 ms latency).
// Nothing here is checked against a threshold: the figures go to BENCHMARKS.md.
//
// Usage: node scripts/page-bench.mjs [--runs N] [--dist DIR]
//          [--peer DIR --peer-result SELECTOR --peer-input SELECTOR [--peer-name NAME]] [--json FILE]
// (the peer is another built page measured the same way: another calculator, or an earlier
// build of this one)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) { console.error(`page-bench: ${name} needs a value`); process.exit(2); }
  return v;
};
for (const a of args) {
  if (a.startsWith('--') && !['--runs', '--dist', '--peer', '--peer-result', '--peer-input', '--peer-name', '--json'].includes(a)) {
    console.error(`page-bench: unknown option ${a}`); process.exit(2);
  }
}
const runs = Number(opt('--runs', '7'));
if (!Number.isInteger(runs) || runs < 1 || runs > 100) { console.error('page-bench: --runs takes 1 to 100'); process.exit(2); }
const pages = [{ name: 'headroom', dir: path.resolve(root, opt('--dist', 'dist')), result: '#hr-total-bytes', input: '#hr-context', values: ['8192', '4096'] }];
if (opt('--peer')) {
  pages.push({ name: opt('--peer-name', 'peer'), dir: path.resolve(opt('--peer')), result: opt('--peer-result'), input: opt('--peer-input'), values: ['8192', '4096'] });
  if (!pages[1].result || !pages[1].input) { console.error('page-bench: --peer needs --peer-result and --peer-input'); process.exit(2); }
}
for (const p of pages) {
  if (!fs.existsSync(path.join(p.dir, 'index.html'))) { console.error(`page-bench: no ${p.dir}/index.html (build first)`); process.exit(1); }
}
const CONDITIONS = [
  { name: 'as is', cpu: 1, net: null },
  { name: 'slowed', cpu: 4, net: { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 } },
];

// Installed before any page script: watches for the result, element timings and paints.
const WATCH = (sel) => {
  window.__bench = { result: null, element: null };
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (window.__bench.element === null) window.__bench.element = e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  // The first frame that holds the result is painted by the start of the frame after it.
  const look = () => {
    const el = document.querySelector(sel);
    if (el && el.textContent.trim()) { requestAnimationFrame(() => { window.__bench.result = performance.now(); }); return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
};

async function measure(browser, page, cond) {
  const server = await serve(page.dir);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cond.cpu });
  if (cond.net) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...cond.net });
  }
  await tab.addInitScript(WATCH, page.result);
  await tab.goto(url, { waitUntil: 'load', timeout: 120000 });
  await tab.waitForFunction(() => window.__bench.result !== null, null, { timeout: 120000 });
  if (page.name === 'headroom') await tab.locator('body[data-hr-live]').waitFor({ timeout: 120000 });
  await tab.waitForLoadState('networkidle');
  const m = await tab.evaluate(() => {
    const b = window.__bench;
    // Element Timing's paint time where Chromium reported it (it drops the entry of an element
    // removed before its paint was reported: the build-time view replaced by the live page),
    // else the frame bound, whichever is earlier.
    const result = b.element === null ? b.result : Math.min(b.element, b.result);
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    const sum = (list) => list.reduce((s, e) => s + e.transferSize, 0);
    const fcp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
    const live = performance.getEntriesByName('headroom-live')[0];
    return {
      transfer_first: nav.transferSize + sum(res.filter((e) => e.responseEnd <= result)),
      transfer_all: nav.transferSize + sum(res),
      fcp: fcp ? fcp.startTime : null,
      result,
      live: live ? live.startTime : null,
    };
  });
  const input = await tab.evaluate(async ({ sel, values }) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
    const frame = () => new Promise((r) => requestAnimationFrame(() => task().then(r)));
    const med = (xs) => { xs.sort((a, b) => a - b); const n = xs.length; return n % 2 ? xs[(n - 1) / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2; };
    await frame();
    // A quarter second between changes: the device table, computed after each change's frame,
    // is done before the next change (it is measured apart: it is not on the input's path).
    const work = [], framed = [];
    for (let i = 0; i < 12; i++) {
      const t0 = performance.now();
      el.value = values[i % values.length];
      el.dispatchEvent(new Event('input', { bubbles: true }));
      if (i % 2 === 0) {
        // The page's own work: the handlers, the reactive updates they queue, and the style and
        // layout of what changed, forced at once.
        await task();
        document.body.getBoundingClientRect();
        work.push(performance.now() - t0);
        await frame();
        await new Promise((r) => setTimeout(r, 250));
      } else {
        await frame();
        framed.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    return { work: med(work), frame: med(framed) };
  }, { sel: page.input, values: page.values });
  m.input = input && input.work;
  m.input_frame = input && input.frame;
  await context.close();
  server.close();
  return m;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});
const samples = [];
for (let r = 0; r < runs; r++) {
  for (const cond of CONDITIONS) {
    for (const page of pages) {
      samples.push({ page: page.name, cond: cond.name, run: r, ...(await measure(browser, page, cond)) });
    }
  }
  process.stderr.write(`run ${r + 1}/${runs}\n`);
}
await browser.close();

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const fmt = (key, xs) => {
  xs = xs.filter((x) => x !== null && x !== undefined);
  if (!xs.length) return 'n/a';
  const kb = key.startsWith('transfer');
  const f = (x) => (kb ? `${(x / 1000).toFixed(1)} KB` : `${x.toFixed(key.startsWith('input') ? 1 : 0)} ms`);
  return `${f(median(xs))} [${f(Math.min(...xs))}–${f(Math.max(...xs))}]`;
};
const KEYS = ['transfer_first', 'transfer_all', 'fcp', 'result', 'live', 'input', 'input_frame'];
console.log(`page benchmark: ${runs} fresh loads per page and condition, interleaved; median [min–max]`);
for (const cond of CONDITIONS) {
  for (const page of pages) {
    console.log(`\n${page.name}, ${cond.name}`);
    for (const k of KEYS) console.log(`  ${k.padEnd(15)} ${fmt(k, samples.filter((s) => s.page === page.name && s.cond === cond.name).map((s) => s[k]))}`);
  }
}
const out = opt('--json');
if (out) fs.writeFileSync(out, JSON.stringify({ runs, samples }, null, 1));

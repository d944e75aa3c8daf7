// Measures the time to first result of the built page: serves dist/ on 127.0.0.1, opens it in
// fresh pages of headless Chromium and prints the `headroom-first-result` mark (ms from
// navigation start) of each, with when the WASM arrived.
// Usage: node tests/e2e/first-result.mjs [runs] [query]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/static-server.mjs';
import { CHROMIUM_ARGS } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = Number(process.argv[2]) || 6;
const server = await serve(path.join(root, 'dist'));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
const marks = [];
for (let i = 0; i < runs; i++) {
  const page = await browser.newPage();
  await page.goto(base + (process.argv[3] || ''));
  // The live page (the build-time first view shows the figure before the WASM runs).
  await page.locator('body[data-hr-live] #hr-total-bytes').waitFor();
  const r = await page.evaluate(() => {
    const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
    const m = performance.getEntriesByName('headroom-first-result')[0];
    const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
    return {
      first_paint_ms: paint && Math.round(paint.startTime),
      first_result_ms: m && Math.round(m.startTime),
      wasm_loaded_ms: wasm && Math.round(wasm.responseEnd),
    };
  });
  marks.push(r.first_result_ms);
  console.log(JSON.stringify(r));
  await page.close();
}
marks.sort((a, b) => a - b);
console.log(`median ${marks[Math.floor(marks.length / 2)]} ms over ${runs} pages`);
await browser.close();
server.close();

// A small test harness for Headroom's end-to-end tests: serves dist/ on 127.0.0.1, drives
// Debian's Chromium through playwright-core, fails a test on any console error, saves
// screenshots under tests/e2e/out/ and prints a final "N passed, N failed" line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/static-server.mjs';

export { serve };

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

const tests = [];
/**
 * Registers a test: `fn({ page, base, shot })`. `opts.httpErrors`: the test provokes HTTP error
 * answers on purpose (a gated model's 401), which Chromium logs to the console; only those
 * lines are then tolerated, every other console error still fails the test.
 */
export function test(name, fn, opts = {}) { tests.push({ name, fn, opts }); }

export function assert(cond, msg) { if (!cond) throw new Error(msg || 'assertion failed'); }
export function assertEq(a, b, msg) {
  if (a !== b) throw new Error(`${msg || 'not equal'}: got ${JSON.stringify(a)}, want ${JSON.stringify(b)}`);
}

/** Runs the `headroom` CLI (path in HEADROOM_BIN) and parses its --json output. */
export function cli(args) {
  const bin = process.env.HEADROOM_BIN;
  if (!bin) throw new Error('HEADROOM_BIN is not set');
  return JSON.parse(execFileSync(bin, [...args, '--json'], { encoding: 'utf8' }));
}

export async function run({ dist, outDir }) {
  fs.mkdirSync(outDir, { recursive: true });
  const server = await serve(dist);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'headroom-e2e-'));
  const context = await chromium.launchPersistentContext(userDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const only = process.env.E2E_ONLY;
  let passed = 0, failed = 0;
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const page = await context.newPage();
    const errors = [];
    const expected = (text) => t.opts.httpErrors && /^Failed to load resource: the server responded with a status of 40[134]/.test(text);
    page.on('console', (m) => { if (m.type() === 'error' && !expected(m.text())) errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    const shot = (name, opts = {}) => page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true, ...opts });
    const started = Date.now();
    try {
      await t.fn({ page, base, shot, context, outDir });
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - started} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}: ${e && e.stack ? e.stack : e}`);
      try { await shot(`FAILED-${t.name.replace(/[^a-z0-9]+/gi, '-')}`); } catch {}
    }
    await page.close();
  }
  await context.close();
  server.close();
  fs.rmSync(userDir, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  return { passed, failed };
}

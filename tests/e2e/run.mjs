// Headroom's end-to-end tests against the built dist/ (see harness.mjs).
// Usage: node tests/e2e/run.mjs [dist-dir]   (HEADROOM_BIN=path/to/headroom for CLI cross-checks)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, assert, assertEq, cli, run } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

const bytesOf = (page, sel) => page.locator(sel).getAttribute('data-bytes').then(Number);

test('seed slice: parameters and precision give the CLI figure, and the link keeps them', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&params=7B&weights=fp16`);
  await page.locator('#hr-weights-bytes').waitFor();
  const expected = cli(['estimate', '--params', '7B', '--weights', 'fp16']);
  assertEq(await bytesOf(page, '#hr-weights-bytes'), expected.memory.weights, 'weights for 7B fp16');
  assertEq(expected.memory.weights, 14000000000, 'the seed rule');

  // Type a new count: the figure and the link follow.
  await page.fill('#hr-params', '70B');
  await page.selectOption('#hr-weights', 'int4');
  const want = cli(['estimate', '--params', '70B', '--weights', 'int4']).memory.weights;
  await page.waitForFunction((w) => document.querySelector('#hr-weights-bytes')?.dataset.bytes === String(w), want);
  const url = new URL(page.url());
  assertEq(url.searchParams.get('params'), '70B', 'params in the link');
  assertEq(url.searchParams.get('weights'), 'int4', 'weights in the link');

  // Reloading restores the same view.
  await page.reload();
  await page.locator('#hr-weights-bytes').waitFor();
  assertEq(await bytesOf(page, '#hr-weights-bytes'), want, 'after reload');
  assertEq(await page.inputValue('#hr-params'), '70B', 'params input after reload');
  assertEq(await page.inputValue('#hr-weights'), 'int4', 'precision after reload');
  await shot('desktop-seed-slice');
});

test('a half-typed or bad count shows a message, not a blank page', async ({ page, base }) => {
  await page.goto(`${base}?v=1&params=7B`);
  await page.locator('#hr-weights-bytes').waitFor();
  const before = await bytesOf(page, '#hr-weights-bytes');
  await page.fill('#hr-params', '7Bx');
  await page.locator('#hr-params-error').filter({ hasText: 'invalid params' }).waitFor();
  assertEq(await bytesOf(page, '#hr-weights-bytes'), before, 'last good figure kept');
  assertEq(await page.inputValue('#hr-params'), '7Bx', 'raw text kept');
});

test('a broken link opens with a notice', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&params=banana&weights=fp12&zzz=1`);
  const notice = page.locator('.hr-notice');
  await notice.waitFor();
  const text = await notice.textContent();
  assert(text.includes('params') && text.includes('weights') && text.includes('zzz'), text);
  await page.locator('#hr-weights-bytes').waitFor();
  await shot('desktop-bad-link');
});

await run({ dist: process.argv[2] || path.join(root, 'dist'), outDir: path.join(here, 'out') });

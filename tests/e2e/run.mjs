// Headroom's end-to-end tests against the built dist/ (see harness.mjs). They drive the page like
// a user, check its numbers against the `headroom` CLI for the same scenario, open every golden
// link, embed the page from another origin, run axe-core, and save screenshots to look at.
// Usage: HEADROOM_BIN=target/debug/headroom node tests/e2e/run.mjs [dist-dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, assert, assertEq, cli, run, serve } from './harness.mjs';
import { hubServer } from './hub-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const metrics = {};
const hub = await hubServer();
const hubBase = `http://127.0.0.1:${hub.port}`;
const hubLog = async () => (await fetch(`${hubBase}/_log`)).json();
const hubClear = () => fetch(`${hubBase}/_log/clear`);
const hubDelay = (ms) => fetch(`${hubBase}/_delay?ms=${ms}`);
const fx = (p) => path.join(root, 'tests/fixtures', p);
const TOKEN = fs.readFileSync(fx('hub/meta-llama/Llama-3.2-1B/_gated'), 'utf8').trim();

/** Every file request read a header at most: ranged, and never more bytes than the header. */
function headersOnly(log) {
  for (const e of log.filter((x) => /\.(safetensors|gguf)$/.test(x.path))) {
    assert(e.range, `${e.path} was requested without a Range`);
    assert(e.bytes <= 4 << 20, `${e.path}: ${e.bytes} bytes read`);
  }
}

const bytesOf = (page, sel) => page.locator(sel).first().getAttribute('data-bytes').then(Number);
const waitBytes = (page, sel, want) =>
  page.waitForFunction(([s, w]) => document.querySelector(s)?.dataset.bytes === String(w), [sel, want], { timeout: 10000 });
// The live page, not the build-time first view (which shows the same figures but does nothing).
// The page's link once written: it follows changes once they pause (`data-hr-link-pending` meanwhile).
const linkOf = async (page) => {
  await page.locator('body:not([data-hr-link-pending])').waitFor({ state: 'attached' });
  return new URL(page.url());
};
const ready = (page) => page.locator('body[data-hr-live] #hr-total-bytes').waitFor({ timeout: 15000 });
// Pastes a config.json file on the page, waits for the CLI's total for it, and returns the CLI's
// estimate.
const pasteConfig = async (page, file) => {
  await page.fill('#hr-config', fs.readFileSync(file, 'utf8'));
  await page.click('#hr-config-read');
  const want = cli(['estimate', '--config', file]);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  return want;
};

async function axe(page, label) {
  const source = fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: source });
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  });
  // Every impact counts, minor and moderate included.
  const bad = result;
  assert(bad.length === 0, `${label}: axe found ${JSON.stringify(bad)}`);
  return result;
}

test('the default view is useful, and equals the CLI', async ({ page, base, shot }) => {
  const t0 = Date.now();
  await page.goto(base);
  await ready(page);
  const first = await page.evaluate(() => performance.getEntriesByName('headroom-first-result')[0]?.startTime ?? null);
  metrics.first_result_ms = first;
  metrics.first_result_wall_ms = Date.now() - t0;
  const want = cli(['estimate', '--model', 'llama-3.1-8b']);
  assertEq(await bytesOf(page, '#hr-total-bytes'), want.memory.total, 'total');
  assertEq(await bytesOf(page, '#hr-weights-bytes'), want.memory.weights, 'weights');
  assertEq(await bytesOf(page, '#hr-kv-cache-bytes'), want.memory.kv_cache, 'kv');
  assertEq(await page.locator('.hr-seed .hr-chosen td').first().textContent(), 'BF16', 'seed row');
  await shot('desktop-default');
});

test('before the WASM runs, the default answer is on screen in the reader\'s language, and the live page takes over without a shift', async ({ context, base, outDir }) => {
  const want = cli(['estimate', '--model', 'llama-3.1-8b']);
  for (const lang of ['en', 'fr']) {
    const page = await context.newPage();
    if (lang === 'fr') await page.addInitScript(() => Object.defineProperty(navigator, 'language', { get: () => 'fr-FR' }));
    // Hold the WASM until the first view has been looked at.
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
    await page.addInitScript(() => {
      window.__shift = 0;
      new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; })
        .observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(base);
    const total = page.locator('#hr-total-bytes');
    await total.waitFor({ state: 'visible' });
    // Painted, not only in the document: the first contentful paint happens while the WASM waits.
    await page.waitForFunction(() => performance.getEntriesByType('paint').some((e) => e.name === 'first-contentful-paint'));
    assertEq(await page.locator('body[data-hr-live]').count(), 0, `${lang}: the WASM has not run`);
    assertEq(await page.locator('[data-hr-prerender]').count(), 1, `${lang}: one first view, the other language removed`);
    assertEq(await bytesOf(page, '#hr-total-bytes'), want.memory.total, `${lang}: first-view total`);
    assertEq(await bytesOf(page, '#hr-weights-bytes'), want.memory.weights, `${lang}: first-view weights`);
    const tagline = await page.locator('.hr-tagline').first().textContent();
    const before = await page.locator('#hr-res-vram').boundingBox();
    const text = await page.locator('.hr-resources').textContent();
    const fields = () => page.$$eval('input, select', (els) => els.map((e) => `${e.id}=${e.type === 'checkbox' ? e.checked : e.value}`).join(' '));
    const fieldsBefore = await fields();
    await page.screenshot({ path: path.join(outDir, `first-view-before-wasm-${lang}.png`) });
    release();
    await page.locator('body[data-hr-live] #hr-total-bytes').waitFor();
    assertEq(await page.locator('[data-hr-prerender]').count(), 0, `${lang}: the first view is gone`);
    assertEq(await page.locator('.hr-tagline').count(), 1, `${lang}: one page`);
    assertEq(await page.locator('.hr-tagline').textContent(), tagline, `${lang}: same language`);
    assertEq(await page.locator('.hr-resources').textContent(), text, `${lang}: same figures`);
    assertEq(await fields(), fieldsBefore, `${lang}: same fields`);
    assertEq(JSON.stringify(await page.locator('#hr-res-vram').boundingBox()), JSON.stringify(before), `${lang}: the figure did not move`);
    await page.waitForTimeout(300);
    const shift = await page.evaluate(() => window.__shift);
    assert(shift < 0.001, `${lang}: layout shift ${shift}`);
    if (lang === 'fr') assert(/[àéè]/.test(tagline), `French first view: ${tagline}`);
    await page.close();
  }
});

test('a link asking for anything else shows no first view until the live page answers it', async ({ context, base }) => {
  for (const query of ['?v=1&params=70B', '?v=1&embed=1', '?lang=de', '?v=1&theme=blue']) {
    const page = await context.newPage();
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
    await page.goto(base + query);
    await page.waitForLoadState('domcontentloaded');
    assertEq(await page.locator('#hr-total-bytes').count(), 0, `${query}: no answer before the WASM`);
    release();
    await page.locator('body[data-hr-live] #hr-total-bytes').waitFor({ timeout: 15000 });
    await page.close();
  }
  const page = await context.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(`${base}?lang=fr&theme=dark`);
  await page.locator('#hr-total-bytes').waitFor({ state: 'visible' });
  assertEq(await page.evaluate(() => document.documentElement.getAttribute('data-hr-theme')), 'dark', 'the theme before the WASM');
  assertEq(await page.locator('[data-hr-prerender="fr"]').count(), 1, 'the French first view');
  release();
  await page.locator('body[data-hr-live] #hr-total-bytes').waitFor({ timeout: 15000 });
  await page.close();
});

test('the answer first: one sentence in the first screen, on a desktop and a phone, as the CLI says', async ({ context, base, outDir }) => {
  const q = '?v=1&model=llama-3.1-8b&weights=q4_k_m&runtime=llama.cpp&device=rtx-4090';
  const want = cli(['estimate', '--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp', '--device', 'rtx-4090']);
  for (const [name, w, h] of [['desktop', 1400, 900], ['phone', 390, 844]]) {
    const page = await context.newPage();
    await page.setViewportSize({ width: w, height: h });
    for (const [query, verdict] of [['', 'none'], [q, want.fit.verdict]]) {
      await page.goto(base + query);
      await ready(page);
      const a = page.locator('#hr-answer');
      assertEq(await a.getAttribute('data-verdict'), verdict, `${name} ${query}: verdict`);
      const box = await a.boundingBox();
      assert(box && box.y >= 0 && box.y + box.height <= h, `${name} ${query}: the answer is in the first screen (${JSON.stringify(box)})`);
      const text = await a.textContent();
      if (verdict === 'none') {
        assert(/Choose a device/.test(text), text);
      } else {
        assert(text.includes(want.fit.name || 'RTX 4090') && /About [0-9.,]+ tokens\/s/.test(text), text);
      }
    }
    await page.screenshot({ path: path.join(outDir, `answer-first-${name}.png`) });
    await page.close();
  }
});

test('reverse questions: one click each, answers as the CLI finds them, each a link that applies', async ({ page, base, shot }) => {
  const flags = ['--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp', '--device', 'rtx-4090'];
  await page.goto(`${base}?v=1&model=llama-3.1-8b&weights=q4_k_m&runtime=llama.cpp&device=rtx-4090`);
  await ready(page);
  const answer = page.locator('#hr-question-answer');
  const ask = async (id) => { await page.click(`#hr-ask-${id}`); await answer.waitFor(); return answer.textContent(); };
  const fmt = (n) => n.toLocaleString('en-US');
  const ctx = cli(['recommend', ...flags, '--max-context']).max_context;
  assert((await ask('ctx')).includes(`${fmt(ctx)} tokens`), 'longest context as the CLI');
  const users = cli(['recommend', ...flags, '--max-batch']).max_batch;
  assert((await ask('users')).includes(`Up to ${fmt(users)} concurrent requests`), 'most requests as the CLI');
  const quant = cli(['recommend', ...flags, '--best-quant']);
  assert((await ask('quant')).toLowerCase().includes(quant.format.replace(/_/g, '_')), `best format as the CLI (${quant.format})`);
  const models = cli(['recommend', ...flags, '--models', '--top', '1000']);
  const listed = await ask('models');
  assert(listed.includes(`${models.length} of `), `models that run: ${models.length}`);
  assertEq(await page.locator('#hr-question-answer li').count(), Math.min(12, models.length), 'models listed');
  const cheapest = cli(['recommend', ...flags, '--cheapest']);
  await ask('cheapest');
  assertEq(await page.locator('#hr-question-answer li a').first().textContent(), cheapest[0].name, 'cheapest first');
  await shot('desktop-reverse-questions');
  // A change takes the answer away rather than leave it stale.
  await page.fill('#hr-context', '8192');
  await page.locator('#hr-question-answer').waitFor({ state: 'detached' });
  // The answer is a link: it applies the longest context.
  await ask('ctx');
  const ctx8 = cli(['recommend', ...flags, '--context', '8192', '--max-context']).max_context;
  await page.click('#hr-apply');
  await ready(page);
  const url = await linkOf(page);
  assertEq(url.searchParams.get('ctx'), String(ctx8), 'the link applies the context');
  const applied = cli(['estimate', ...flags, '--context', String(ctx8)]);
  assertEq(await bytesOf(page, '#hr-total-bytes'), applied.memory.total, 'total at the longest context');
  assertEq(await page.locator('#hr-answer').getAttribute('data-verdict'), 'fits', 'it fits there');
  // Without a device only the cheapest device can be asked.
  await page.goto(`${base}?v=1&model=llama-3.1-8b`);
  await ready(page);
  assert(await page.locator('#hr-ask-ctx').isDisabled(), 'needs a device');
  assert(!(await page.locator('#hr-ask-cheapest').isDisabled()), 'the cheapest device needs none');
});

test('a device is found by name, alias or memory; several are offered, none is said', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=llama-3.1-8b&weights=q4_k_m&runtime=llama.cpp`);
  await ready(page);
  await page.fill('#hr-device-search', '4090');
  await page.locator('#hr-answer[data-verdict="fits"]').waitFor();
  assertEq(await page.inputValue('#hr-device'), 'rtx-4090', 'an alias chooses its device');
  assertEq((await linkOf(page)).searchParams.get('device'), 'rtx-4090', 'in the link');
  await page.fill('#hr-device-search', '48 GB');
  const chips = page.locator('#hr-device-found button');
  await chips.first().waitFor();
  const n = await chips.count();
  assert(n >= 2, `several 48 GB devices offered (${n})`);
  await shot('desktop-device-search');
  const id = await chips.nth(1).getAttribute('data-device');
  await chips.nth(1).click();
  await page.waitForFunction((want) => document.querySelector('#hr-device').value === want, id);
  const want = cli(['estimate', '--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp', '--device', id]);
  assertEq(await page.locator('#hr-answer').getAttribute('data-verdict'), want.fit.verdict, `verdict on ${id}`);
  await page.fill('#hr-device-search', 'no such card');
  await page.locator('#hr-device-found').filter({ hasText: 'No catalog device matches' }).waitFor();
  assertEq(await page.inputValue('#hr-device'), id, 'nothing found changes nothing');
});

test('common questions as starting points: each sets its knobs, shown in the inputs and the link, as the CLI reads it', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=qwen3-8b`);
  await ready(page);
  const expect = {
    chat: { '#hr-context': '8192', '#hr-runtime': 'llama.cpp' },
    serve: { '#hr-batch': '32', '#hr-runtime': 'vllm' },
    lora: { '#hr-rank': '16', '#hr-framework': 'trl' },
    qlora: { '#hr-rank': '64', '#hr-optimizer': 'paged-adamw-8bit' },
    'full-node': { '#hr-device': 'h100-sxm', '#hr-zero': '3' },
  };
  for (const [goal, fields] of Object.entries(expect)) {
    await page.click(`#hr-goal-${goal}`);
    const url = await linkOf(page);
    const want = cli(['estimate', '--from-link', url.search]);
    await waitBytes(page, '#hr-total-bytes', want.memory.total);
    for (const [sel, v] of Object.entries(fields)) {
      await page.waitForFunction(([s, w]) => document.querySelector(s)?.value === w, [sel, v], { timeout: 5000 })
        .catch(async () => { throw new Error(`${goal}: ${sel} is ${await page.inputValue(sel).catch(() => 'absent')}, want ${v}`); });
    }
    assertEq(url.searchParams.get('model'), 'qwen3-8b', `${goal}: the model stays`);
  }
  await shot('desktop-goal-full-node');
});

test('offload needs system RAM: said when unknown, checked when given, as the CLI does', async ({ page, base, shot }) => {
  const flags = ['--model', 'llama-3.1-70b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp', '--device', 'rtx-4090'];
  await page.goto(`${base}?v=1&model=llama-3.1-70b&weights=q4_k_m&runtime=llama.cpp&device=rtx-4090`);
  await ready(page);
  const answer = page.locator('#hr-answer');
  assertEq(await answer.getAttribute('data-verdict'), cli(['estimate', ...flags]).fit.verdict, 'offload without RAM');
  assert((await answer.textContent()).includes("give the machine's RAM"), 'the RAM is said, not assumed');
  for (const [ram, text] of [['16', 'this machine has'], ['64', null]]) {
    await page.fill('#hr-host-ram', ram);
    const want = cli(['estimate', ...flags, '--host-ram', ram]);
    await page.locator(`#hr-answer[data-verdict="${want.fit.verdict}"]`).waitFor();
    if (text) assert((await answer.textContent()).includes(text), `${ram} GiB: ${await answer.textContent()}`);
    assertEq((await linkOf(page)).searchParams.get('hostram'), ram, 'in the link');
    if (ram === '16') await shot('desktop-host-ram-short');
  }
  await page.fill('#hr-host-ram', 'lots');
  await page.locator('#hr-host-ram-error').filter({ hasText: 'GiB' }).waitFor();
  await page.fill('#hr-host-ram', '');
  await page.locator('#hr-answer').filter({ hasText: "give the machine's RAM" }).waitFor();
});

test('a runtime llama.cpp beats on the device is told what llama.cpp would do, with the switch', async ({ page, base }) => {
  await page.goto(`${base}?v=1&model=qwen3-32b&runtime=transformers&device=rtx-4090`);
  await ready(page);
  const here = cli(['estimate', '--model', 'qwen3-32b', '--runtime', 'transformers', '--device', 'rtx-4090']);
  const there = cli(['estimate', '--model', 'qwen3-32b', '--runtime', 'llama.cpp', '--device', 'rtx-4090']);
  assertEq(await page.locator('#hr-answer').getAttribute('data-verdict'), here.fit.verdict, 'transformers');
  const alt = page.locator('#hr-answer-alt');
  assert((await alt.textContent()).startsWith('With llama.cpp:'), await alt.textContent());
  await page.click('#hr-switch-runtime');
  await page.locator(`#hr-answer[data-verdict="${there.fit.verdict}"]`).waitFor();
  assertEq(await page.inputValue('#hr-runtime'), 'llama.cpp', 'switched');
  assertEq(await alt.count(), 0, 'nothing better to say');
  assertEq(await bytesOf(page, '#hr-total-bytes'), there.memory.total, 'llama.cpp total');
});

test('tabs follow the ARIA tabs pattern; each Select names its device; the chosen row says so', async ({ page, base }) => {
  await page.goto(`${base}?v=1&model=llama-3.1-8b&device=rtx-4090`);
  await ready(page);
  const selected = () => page.evaluate(() => document.querySelector('.hr-mode-tabs [aria-selected="true"]')?.id);
  await page.focus('#hr-mode-inference');
  assertEq(await page.getAttribute('#hr-mode-full', 'tabindex'), '-1', 'roving tabindex');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.id === 'hr-mode-full');
  assertEq(await selected(), 'hr-mode-full', 'arrow right chooses the next');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.activeElement?.id === 'hr-mode-qlora');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.id === 'hr-mode-inference');
  assertEq(await selected(), 'hr-mode-inference', 'wraps around');
  assertEq(await page.getAttribute('#hr-mode-inference', 'tabindex'), '0', 'the chosen tab is the tab stop');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.activeElement?.id === 'hr-mode-qlora');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.activeElement?.id === 'hr-mode-inference');
  // The model source tabs too.
  await page.focus('#hr-source-catalog');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.id === 'hr-source-params');
  assertEq(await page.getAttribute('#hr-source-params', 'aria-selected'), 'true', 'source tab');
  await page.click('#hr-source-catalog');
  // Every Select button is named with its device; the chosen device's row is marked.
  await page.locator('.hr-devices tbody tr').first().waitFor();
  const names = await page.$$eval('.hr-devices button[data-action="device"]', (bs) => bs.map((b) => b.getAttribute('aria-label')));
  assert(names.length > 0 && names.every((n) => /^Select .+/.test(n)), JSON.stringify(names.slice(0, 3)));
  await page.fill('#hr-device-search', 'rtx-3090');
  await page.click('.hr-devices [data-action="kind"][data-arg="gpu"]');
  await page.locator('.hr-devices tr.hr-selected[data-device="rtx-3090"][aria-current="true"]').first().waitFor({ timeout: 5000 })
    .catch(() => { throw new Error('the chosen row is not marked (is it among the first shown?)'); });
});

test('the device table sorts by each column, shows the cost of a million tokens, and names cloud instances in words', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=llama-3.1-8b&weights=q4_k_m&runtime=llama.cpp`);
  await ready(page);
  await page.locator('.hr-devices tbody tr').first().waitFor();
  const col = (i) => page.$$eval(`.hr-devices tbody tr`, (rows, i) => rows.map((r) => r.children[i].textContent.trim()), i);
  const num = (t) => Number(t.replace(/[^0-9.]/g, '')) || Infinity;
  await page.click('.hr-devices [data-action="sort"][data-arg="headroom"]');
  await page.locator('.hr-devices th[aria-sort="descending"] [data-arg="headroom"]').waitFor();
  const heads = (await col(2)).map((t) => Number(t.replace('%', '')));
  assert(heads.every((x, i) => i === 0 || heads[i - 1] >= x), `headroom descending: ${heads}`);
  await page.click('.hr-devices [data-action="sort"][data-arg="mtok"]');
  await page.locator('.hr-devices th[aria-sort="ascending"] [data-arg="mtok"]').waitFor();
  const per = (await col(5)).map(num);
  assert(per.every((x, i) => i === 0 || per[i - 1] <= x), `$ per million tokens ascending: ${per}`);
  // The first row is the CLI's cheapest per million tokens among devices that run it.
  const fits = cli(['fit', '--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp']);
  const best = fits.filter((f) => f.verdict !== 'no' && f.cost.usd_per_million_tokens != null)
    .sort((a, b) => a.cost.usd_per_million_tokens - b.cost.usd_per_million_tokens)[0];
  assertEq(await page.locator('.hr-devices tbody tr').first().getAttribute('data-device'), best.device, 'cheapest per million tokens');
  await page.click('.hr-devices [data-action="kind"][data-arg="cloud"]');
  const cloud = await page.locator('.hr-devices tbody tr td').first().innerHTML();
  assert(/ · \d+ × .+<small class="hr-instance-id">/.test(cloud), `cloud in words: ${cloud}`);
  await shot('desktop-device-table-sorted');
});

test('detect my device: what the browser tells, how sure, and nothing sent', async ({ page, base }) => {
  await page.goto(`${base}?v=1&model=llama-3.1-8b`);
  await ready(page);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.click('#hr-detect');
  const box = page.locator('#hr-detected[role="status"]');
  await box.waitFor();
  const text = await box.textContent();
  assert(/Nothing is sent anywhere/.test(text), text);
  assert(/GPU/.test(text), `the GPU is named or said unknown: ${text}`);
  assertEq(requests.length, 0, `no request: ${requests.join(', ')}`);
});

test('seed slice: parameters and precision give the CLI figure, and the link keeps them', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&params=7B&weights=fp16`);
  await ready(page);
  const expected = cli(['estimate', '--params', '7B', '--weights', 'fp16']);
  assertEq(await bytesOf(page, '#hr-weights-bytes'), expected.memory.weights, 'weights for 7B fp16');
  assertEq(expected.memory.weights, 14000000000, 'the seed rule');
  await page.fill('#hr-params', '70B');
  await page.selectOption('#hr-weights', 'int4');
  const want = cli(['estimate', '--params', '70B', '--weights', 'int4']);
  await waitBytes(page, '#hr-weights-bytes', want.memory.weights);
  assertEq(await bytesOf(page, '#hr-total-bytes'), want.memory.total, 'total for 70B int4');
  const url = (await linkOf(page));
  assertEq(url.searchParams.get('params'), '70B', 'params in the link');
  assertEq(url.searchParams.get('weights'), 'int4', 'weights in the link');
  await page.reload();
  await ready(page);
  assertEq(await bytesOf(page, '#hr-weights-bytes'), want.memory.weights, 'after reload');
  assertEq(await page.inputValue('#hr-params'), '70B', 'params input after reload');
  assertEq(await page.inputValue('#hr-weights'), 'int4', 'precision after reload');
  await shot('desktop-seed-slice');
});

test('changing inputs shows the numbers the CLI prints, with the device verdict and speed', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.fill('#hr-model', 'qwen3-8b');
  await page.locator('#hr-model').dispatchEvent('change');
  await page.selectOption('#hr-weights', 'q4_k_m');
  await page.fill('#hr-context', '32768');
  await page.fill('#hr-batch', '4');
  await page.selectOption('#hr-device', 'rtx-4090');
  const want = cli(['estimate', '--model', 'qwen3-8b', '--weights', 'q4_k_m', '--context', '32768', '--batch', '4', '--device', 'rtx-4090']);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq(await bytesOf(page, '#hr-kv-cache-bytes'), want.memory.kv_cache, 'kv');
  assertEq(await page.locator('#hr-verdict').getAttribute('data-verdict'), want.fit.verdict, 'verdict');
  const tps = Number(await page.locator('#hr-decode').getAttribute('data-tps'));
  assert(Math.abs(tps - want.speed.decode_tokens_per_s) < 0.01, `decode ${tps} vs ${want.speed.decode_tokens_per_s}`);
  assertEq((await linkOf(page)).search, want.link, 'the page link is the CLI link');
  assert((await page.locator('#hr-commands').textContent()).includes('llama-server -m qwen3-8b.Q4_K_M.gguf -c 131072 -np 4'), 'command');
  await shot('desktop-device');
});

test('training modes match the CLI', async ({ page, base }) => {
  await page.goto(`${base}?v=1&model=llama-3.1-8b`);
  await ready(page);
  await page.click('#hr-mode-qlora');
  await page.fill('#hr-rank', '32');
  await page.selectOption('#hr-ckpt', 'full');
  const want = cli(['estimate', '--model', 'llama-3.1-8b', '--mode', 'qlora', '--lora-rank', '32', '--checkpointing', 'full']);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq(await bytesOf(page, '#hr-adapters-bytes'), want.memory.adapters, 'adapters');
  await page.click('#hr-mode-full');
  const full = cli(['estimate', '--model', 'llama-3.1-8b', '--mode', 'full', '--lora-rank', '32', '--checkpointing', 'full']);
  await waitBytes(page, '#hr-total-bytes', full.memory.total);
  assertEq(await bytesOf(page, '#hr-optimizer-bytes'), full.memory.optimizer, 'optimizer');
  assertEq(await bytesOf(page, '#hr-master-weights-bytes'), full.memory.master_weights, 'master weights');
});

test('a framework preset sets the knobs as the CLI does; a run that does not fit shows what would', async ({ page, base, shot }) => {
  const args = ['estimate', '--model', 'llama-3.1-8b', '--mode', 'qlora', '--context', '8192', '--batch', '4', '--device', 'rtx-4060-ti-16gb'];
  const want = cli(args);
  await page.goto(`${base}${want.link}`);
  await ready(page);
  await page.locator('#hr-remedies').waitFor({ timeout: 10000 });
  assertEq(await page.locator('#hr-remedies li').count(), want.training.advice.remedies.length, 'the same ladder as the CLI');
  assert((await page.locator('#hr-remedies li.hr-fits').count()) === 1, 'the last step fits');
  assert(!(await page.locator('#hr-remedies').textContent()).includes('--'), 'the page speaks in words, not CLI flags');
  await shot('training-remedies');
  await page.selectOption('#hr-framework', 'unsloth');
  const u = cli([...args, '--framework', 'unsloth']);
  await waitBytes(page, '#hr-total-bytes', u.memory.total);
  assertEq((await linkOf(page)).search, u.link, 'the page link is the CLI link');
  assert(!(await page.locator('#hr-lora-dropout').isChecked()), 'Unsloth: no LoRA dropout');
  assertEq(await page.locator('#hr-loss').inputValue(), 'fused', 'Unsloth: fused loss');
  await page.check('#hr-dora');
  const d = cli([...args, '--framework', 'unsloth', '--dora']);
  await waitBytes(page, '#hr-total-bytes', d.memory.total);
  assert(d.memory.total > u.memory.total, 'DoRA costs more');
  assert((await page.locator('#hr-commands').textContent()).includes('FastLanguageModel'), 'the command is Unsloth\'s');
  // A run that fits says how far it stretches, as the CLI does.
  const fits = cli(['estimate', '--model', 'llama-3.2-1b', '--mode', 'lora', '--device', 'rtx-4090']);
  await page.goto(`${base}${fits.link}`);
  await ready(page);
  const limits = await page.locator('#hr-training-limits').textContent({ timeout: 10000 });
  const fmt = (n) => n.toLocaleString('en-US');
  assert(limits.includes(fmt(fits.training.advice.max_context)) && limits.includes(fmt(fits.training.advice.max_micro_batch)), limits);
  // LoRA's rank/targets trade-off: the CLI's ten settings, the scenario's marked, each a link.
  const table = page.locator('#hr-lora-tradeoff');
  assertEq(await table.locator('td').count(), fits.training.advice.lora.length, 'ten settings');
  const cur = fits.training.advice.lora.find((o) => o.current);
  assert((await table.locator('td.hr-current').textContent()).includes(fmt(cur.trainable)), 'the scenario\'s own is marked');
  await shot('training-limits');
  await table.locator('td a').nth(6).click();
  await page.waitForFunction(() => document.querySelector('#hr-rank')?.value === '64');
  assert((await linkOf(page)).search.includes('rank=64'), 'the link applies the rank');
});

test('long sequences and batching: tensor, sequence and Ulysses parallelism and padding as the CLI computes them', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=llama-3.1-8b&mode=full&gpus=4&ctx=8192`);
  await ready(page);
  await page.fill('#hr-tp-train', '4');
  const tp = cli(['estimate', '--model', 'llama-3.1-8b', '--mode', 'full', '--gpus', '4', '--context', '8192', '--tp', '4']);
  await waitBytes(page, '#hr-total-bytes', tp.memory.total);
  await page.check('#hr-seq-parallel');
  const sp = cli(['estimate', '--model', 'llama-3.1-8b', '--mode', 'full', '--gpus', '4', '--context', '8192', '--tp', '4', '--sequence-parallel']);
  await waitBytes(page, '#hr-total-bytes', sp.memory.total);
  assert(sp.memory.total < tp.memory.total, 'sequence parallelism keeps less');
  assertEq((await linkOf(page)).search, sp.link, 'the page link is the CLI link');
  await page.fill('#hr-tp-train', '1');
  await page.fill('#hr-ulysses', '4');
  const uly = cli(['estimate', '--model', 'llama-3.1-8b', '--mode', 'full', '--gpus', '4', '--context', '8192', '--sequence-parallel', '--ulysses', '4']);
  await waitBytes(page, '#hr-total-bytes', uly.memory.total);
  assert(uly.notes.some((n) => n.includes('changes nothing')), 'the CLI says sequence parallelism alone does nothing');
  assert((await page.locator('body').textContent()).includes('changes nothing'), 'and so does the page');
  await page.fill('#hr-ulysses', '3');
  await page.locator('text=do not divide by 3').first().waitFor({ timeout: 10000 });
  await page.fill('#hr-ulysses', '1');
  await page.fill('#hr-batch', '8');
  await page.fill('#hr-mean-sample', '600');
  const padded = cli(['estimate', '--model', 'llama-3.1-8b', '--mode', 'full', '--gpus', '4', '--context', '8192', '--sequence-parallel', '--batch', '8', '--mean-sample-tokens', '600']);
  await waitBytes(page, '#hr-total-bytes', padded.memory.total);
  await page.locator('text=about 2.72× the data\'s tokens').first().waitFor({ timeout: 10000 });
  await shot('training-padding');
  await page.selectOption('#hr-batching', 'packed');
  const packed = cli(['estimate', '--model', 'llama-3.1-8b', '--mode', 'full', '--gpus', '4', '--context', '8192', '--sequence-parallel', '--batch', '8', '--mean-sample-tokens', '600', '--batching', 'packed']);
  await waitBytes(page, '#hr-total-bytes', packed.memory.total);
  assertEq(packed.memory.total, padded.memory.total, 'packing changes the time, not the peak');
  assertEq((await linkOf(page)).search, packed.link, 'the page link is the CLI link');
});

test('GPUs that train together wait on their link: the page says how long and over what, as the CLI computes it', async ({ page, base, shot }) => {
  const args = ['estimate', '--model', 'qwen2.5-0.5b', '--mode', 'full', '--gpus', '4', '--context', '2048', '--batch', '2', '--checkpointing', 'full', '--dataset-tokens', '100000000'];
  const pcie = cli([...args, '--device', 'rtx-4090']);
  assertEq(pcie.speed.training_link, 'pcie_host', 'GeForce cards reach each other through system memory');
  assert(pcie.speed.training_waiting_s[0] > 60, 'a DDP run over PCIe waits minutes');
  await page.goto(`${base}${pcie.link}`);
  await ready(page);
  const answer = page.locator('#hr-answer');
  await answer.locator('text=waiting on the PCIe bus through system memory').waitFor({ timeout: 10000 });
  await shot('training-link-wait');
  // Over NVLink the same exchange hides behind the backward pass: nothing to say.
  const nvlink = cli([...args, '--device', 'h100-sxm']);
  assert(nvlink.speed.training_waiting_s[0] < 60, 'NVLink hides it');
  await page.goto(`${base}${nvlink.link}`);
  await ready(page);
  await answer.locator('text=The run takes about').waitFor({ timeout: 10000 });
  assert(!(await answer.textContent()).includes('waiting on'), 'no waiting sentence over NVLink');
});

test('every golden link opens to the same scenario and the CLI numbers', async ({ page, base }) => {
  const lines = fs.readFileSync(path.join(root, 'tests/fixtures/golden-links.tsv'), 'utf8')
    .split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  for (const line of lines) {
    const [query, canonical] = line.split('\t');
    const link = new URL(canonical, 'http://x/');
    if (link.searchParams.get('embed') === '1' || link.searchParams.get('cmp')) continue;
    await page.goto(`${base}${query}`);
    await ready(page);
    assertEq(await page.locator('.hr-notice:not(.hr-info)').count(), 0, `${query}: no notice`);
    const want = cli(['estimate', '--from-link', canonical]);
    assertEq(await bytesOf(page, '#hr-total-bytes'), want.memory.total, `${query}: total`);
    const search = (await linkOf(page)).search;
    assertEq(search, canonical === '?v=1' ? '?v=1' : canonical, `${query}: link rewritten to its canonical form`);
  }
});

test('a half-typed or bad value shows a message, keeps the text and the last figure', async ({ page, base }) => {
  await page.goto(`${base}?v=1&params=7B`);
  await ready(page);
  const before = await bytesOf(page, '#hr-weights-bytes');
  await page.fill('#hr-params', '7Bx');
  await page.locator('#hr-params-error').filter({ hasText: 'not a unit' }).waitFor();
  await page.locator('#hr-stale').waitFor();
  assertEq(await bytesOf(page, '#hr-weights-bytes'), before, 'last good figure kept');
  assertEq(await page.inputValue('#hr-params'), '7Bx', 'raw text kept');
  await page.fill('#hr-context', '0');
  await page.locator('#hr-context-error').filter({ hasText: '1' }).waitFor();
  await page.click('#hr-source-config');
  await page.fill('#hr-config', '{"model_type": "llama", "hidden_size": ');
  await page.click('#hr-config-read');
  await page.locator('#hr-config-error').filter({ hasText: 'config.json' }).waitFor();
  assert(await page.locator('#hr-total-bytes').count() === 1, 'still a page');
});

test('numbers are read by the page language; what reads two ways is refused and the figures marked stale', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&params=7B&lang=fr`);
  await ready(page);
  await page.fill('#hr-params', '7,5B');
  const p75 = cli(['estimate', '--params', '7.5B']);
  await waitBytes(page, '#hr-weights-bytes', p75.memory.weights);
  await page.fill('#hr-params', '7,5 Md');
  await waitBytes(page, '#hr-weights-bytes', p75.memory.weights);
  await page.fill('#hr-context', '8,5k');
  const ctx = cli(['estimate', '--params', '7.5B', '--context', '8704']);
  await waitBytes(page, '#hr-total-bytes', ctx.memory.total);
  assertEq(await page.locator('#hr-stale').count(), 0, 'nothing stale while every field reads');
  await page.fill('#hr-context', '1.000');
  await page.locator('#hr-context-error').filter({ hasText: 'ambigu' }).waitFor();
  await page.locator('#hr-stale').waitFor();
  assertEq(await bytesOf(page, '#hr-total-bytes'), ctx.memory.total, 'the last valid figure, marked stale');
  await shot('desktop-fr-stale');
  await page.fill('#hr-context', '8\u202f704');
  await waitBytes(page, '#hr-total-bytes', ctx.memory.total);
  await page.locator('#hr-stale').waitFor({ state: 'detached' });
  // In English a decimal comma is not read as a thousands separator.
  await page.goto(`${base}?v=1&params=7B&lang=en`);
  await ready(page);
  const before = await bytesOf(page, '#hr-weights-bytes');
  await page.fill('#hr-params', '7,5B');
  await page.locator('#hr-params-error').filter({ hasText: '7.5' }).waitFor();
  assertEq(await bytesOf(page, '#hr-weights-bytes'), before, 'not 75B');
  await page.fill('#hr-params', '7,500,000,000');
  await waitBytes(page, '#hr-weights-bytes', p75.memory.weights);
});

test('a pasted config.json is read exactly', async ({ page, base }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const cfg = fs.readFileSync(path.join(root, 'tests/fixtures/validation/configs/qwen2.5-7b.json'), 'utf8');
  await page.fill('#hr-config', cfg);
  await page.click('#hr-config-read');
  await page.locator('#hr-model-summary').filter({ hasText: '7,615,616,512' }).waitFor();
  const want = cli(['estimate', '--config', path.join(root, 'tests/fixtures/validation/configs/qwen2.5-7b.json')]);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  await page.locator('.hr-notice.hr-info').waitFor();
});

test('llama.cpp settings: -ub, -ctv, --swa-full and --kv-unified change the buffers as the CLI says', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=gemma-3-12b&weights=q4_k_m&ctx=16384&batch=2`);
  await ready(page);
  await page.click('#hr-llama summary');
  await page.fill('#hr-ubatch', '1024');
  await page.selectOption('#hr-kv', 'q8_0');
  await page.selectOption('#hr-kv-v', 'fp16');
  await page.check('#hr-swa-full');
  await page.check('#hr-kv-unified');
  const want = cli(['estimate', '--model', 'gemma-3-12b', '--weights', 'q4_k_m', '--context', '16384', '--batch', '2',
    '--ubatch', '1024', '--kv', 'q8_0', '--kv-v', 'fp16', '--swa-full', '--kv-unified']);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq(await bytesOf(page, '#hr-kv-cache-bytes'), want.memory.kv_cache, 'KV cache as the CLI');
  assertEq(await bytesOf(page, '#hr-activations-bytes'), want.memory.activations, 'compute buffer as the CLI');
  assertEq((await linkOf(page)).search, want.link, 'the page link is the CLI link');
  const cmd = await page.locator('#hr-commands').textContent();
  assert(cmd.includes('-ctk q8_0') && cmd.includes('-ub 1024 --swa-full --kv-unified') && !cmd.includes('-ctv'), cmd);
  await shot('desktop-llama-settings');
});

test('MoE experts in RAM: VRAM and system RAM as the CLI says, kept in the link', async ({ page, base }) => {
  await page.goto(`${base}?v=1&model=qwen3-30b-a3b&weights=q4_k_m&ctx=16384&device=rtx-4090`);
  await ready(page);
  await page.click('#hr-llama summary');
  await page.check('#hr-cpu-moe');
  const want = cli(['estimate', '--model', 'qwen3-30b-a3b', '--weights', 'q4_k_m', '--context', '16384', '--device', 'rtx-4090', '--cpu-moe']);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq(await bytesOf(page, '#hr-weights-bytes'), want.memory.weights, 'VRAM weights as the CLI');
  assertEq((await linkOf(page)).search, want.link, 'the page link is the CLI link');
  assert((await page.locator('#hr-commands').textContent()).includes('--cpu-moe'), 'the command keeps the experts in RAM');
  await page.uncheck('#hr-cpu-moe');
  await page.fill('#hr-n-cpu-moe', '24');
  const some = cli(['estimate', '--model', 'qwen3-30b-a3b', '--weights', 'q4_k_m', '--context', '16384', '--device', 'rtx-4090', '--n-cpu-moe', '24']);
  await waitBytes(page, '#hr-total-bytes', some.memory.total);
  assert(some.memory.weights > want.memory.weights, 'fewer experts in RAM, more VRAM');
});

test('a draft model adds its own line, as the CLI says; a draft llama.cpp would refuse is explained', async ({ page, base }) => {
  await page.goto(`${base}?v=1&model=qwen3-8b&weights=q4_k_m&ctx=16384`);
  await ready(page);
  await page.click('#hr-llama summary');
  await page.selectOption('#hr-draft', 'qwen3-0.6b');
  const want = cli(['estimate', '--model', 'qwen3-8b', '--weights', 'q4_k_m', '--context', '16384', '--draft', 'qwen3-0.6b']);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq(await bytesOf(page, '#hr-draft-bytes'), want.memory.draft, 'the draft line as the CLI');
  assertEq((await linkOf(page)).search, want.link, 'the page link is the CLI link');
  assert((await page.locator('#hr-commands').textContent()).includes('-md qwen3-0.6b.Q4_K_M.gguf'), 'the command loads the draft');
  await page.selectOption('#hr-draft', 'llama-3.2-1b');
  await page.locator('text=differs from the target').first().waitFor({ timeout: 10000 });
});

test('a pasted llama-server command sets the model and settings as the CLI reads it, listing what it leaves out', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-llama summary');
  const cmd = 'CUDA_VISIBLE_DEVICES=0 ./llama-server -m qwen3-8b.Q4_K_M.gguf -c 32768 -np 4 \\\n  -fa on -ctk q8_0 -ub 256 --port 8080';
  await page.fill('#hr-command', cmd);
  await page.click('#hr-command-read');
  const want = cli(['estimate', '--command', cmd]);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq((await linkOf(page)).search, want.link, 'the page link is the CLI link');
  assertEq(await page.inputValue('#hr-model'), 'qwen3-8b', 'the search box shows the command\'s model');
  const notes = await page.locator('#hr-command-notes').textContent();
  assert(notes.includes('--port 8080') && notes.includes('CUDA_VISIBLE_DEVICES=0'), notes);
  await page.fill('#hr-command', 'python serve.py');
  await page.click('#hr-command-read');
  assert((await page.locator('#hr-command-error').textContent()).includes('not a program'), 'a non-command is refused');
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  await shot('desktop-pasted-command');
  // In French, the reasons and the refusal read in French.
  await page.goto(`${base}?v=1&lang=fr`);
  await ready(page);
  await page.click('#hr-llama summary');
  await page.fill('#hr-command', 'llama-server -m qwen3-8b.Q4_K_M.gguf --port 8080');
  await page.click('#hr-command-read');
  await page.locator('#hr-command-notes').filter({ hasText: 'ne change pas la mémoire' }).waitFor({ timeout: 5000 });
  await page.fill('#hr-command', 'python serve.py');
  await page.click('#hr-command-read');
  await page.locator('#hr-command-error').filter({ hasText: "n'est pas un programme" }).waitFor({ timeout: 5000 });
  await shot('desktop-pasted-command-fr');
});

test('a pasted vllm serve command shows the budget vLLM will log, as the CLI computes it', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&device=h100-sxm`);
  await ready(page);
  await page.click('#hr-llama summary');
  const cmd = 'vllm serve Qwen/Qwen3-8B --max-model-len 16000 --gpu-memory-utilization 0.9 --port 8000';
  await page.fill('#hr-command', cmd);
  await page.click('#hr-command-read');
  const want = cli(['estimate', '--command', cmd, '--device', 'h100-sxm']);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq((await linkOf(page)).search, want.link, 'the page link is the CLI link');
  const card = page.locator('#hr-vllm-budget');
  await card.waitFor({ timeout: 10000 });
  const text = await card.textContent();
  for (const line of want.vllm.log) assert(text.includes(line), `the card shows "${line}": ${text}`);
  assert((await page.locator('#hr-command-notes').textContent()).includes('--port 8000'), 'the ignored flag is listed');
  await shot('desktop-vllm-budget');
  // A lower utilisation leaves less cache, as the CLI says.
  await page.click('#hr-vllm summary');
  await page.fill('#hr-gmu', '80');
  const lower = cli(['estimate', '--model', 'qwen3-8b', '--runtime', 'vllm', '--context', '16000', '--gpu-memory-utilization', '0.8', '--device', 'h100-sxm']);
  await page.waitForFunction((l) => document.querySelector('#hr-vllm-budget')?.textContent.includes(l), lower.vllm.log[2], { timeout: 10000 });
  assert(lower.vllm.available_kv_cache_memory < want.vllm.available_kv_cache_memory, 'less cache at 0.8');
  // An EAGLE-3 drafter: its weights and cache layers, as the CLI says.
  await page.selectOption('#hr-spec', 'eagle:3');
  const spec = cli(['estimate', '--model', 'qwen3-8b', '--runtime', 'vllm', '--context', '16000', '--gpu-memory-utilization', '0.8', '--device', 'h100-sxm', '--speculative-config', 'eagle:3']);
  await waitBytes(page, '#hr-total-bytes', spec.memory.total);
  assertEq((await linkOf(page)).search, spec.link, 'the page link is the CLI link (drafter)');
  // SGLang's pool, from its own command.
  const sg = 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 16000 --mem-fraction-static 0.85';
  await page.fill('#hr-command', sg);
  await page.click('#hr-command-read');
  const sgWant = cli(['estimate', '--command', sg, '--device', 'h100-sxm']);
  await waitBytes(page, '#hr-total-bytes', sgWant.memory.total);
  const sgText = await page.locator('#hr-sglang-budget').textContent();
  assert(sgText.includes(sgWant.sglang.log[0]), `the SGLang card shows "${sgWant.sglang.log[0]}": ${sgText}`);
  assertEq((await linkOf(page)).search, sgWant.link, 'the page link is the CLI link (SGLang)');
});

test('hybrid models, pipeline stages and SGLang pools: the page\'s fields give the CLI\'s budgets and logs', async ({ page, base, shot }) => {
  // Qwen3-Next over four H100s with vLLM: the attention block raised to hold a Mamba state.
  await page.goto(`${base}?v=1&model=qwen3-next-80b-a3b&runtime=vllm&gpus=4&device=h100-sxm&ctx=262144`);
  await ready(page);
  const hybrid = cli(['estimate', '--model', 'qwen3-next-80b-a3b', '--runtime', 'vllm', '--gpus', '4', '--device', 'h100-sxm', '--context', '262144']);
  await waitBytes(page, '#hr-total-bytes', hybrid.memory.total);
  const card = page.locator('#hr-vllm-budget');
  await card.waitFor({ timeout: 10000 });
  for (const line of hybrid.vllm.log) assert((await card.textContent()).includes(line), `the card shows "${line}"`);
  assert(hybrid.vllm.log[0].includes('Setting attention block size to 320 tokens'), hybrid.vllm.log[0]);
  await shot('desktop-vllm-hybrid');
  // Prefix caching off: one state per request, as the CLI says.
  await page.click('#hr-vllm summary');
  await page.selectOption('#hr-prefix', 'off');
  const off = cli(['estimate', '--model', 'qwen3-next-80b-a3b', '--runtime', 'vllm', '--gpus', '4', '--device', 'h100-sxm', '--context', '262144', '--prefix-caching', 'off']);
  await page.waitForFunction((l) => document.querySelector('#hr-vllm-budget')?.textContent.includes(l), off.vllm.log.find((l) => l.startsWith('GPU KV cache size')), { timeout: 10000 });
  assertEq((await linkOf(page)).search, off.link, 'the page link is the CLI link (prefix caching)');
  // An FP32 recurrent state: a larger page, fewer tokens, as the CLI says.
  await page.selectOption('#hr-mamba-ssm', 'float32');
  const f32 = cli(['estimate', '--model', 'qwen3-next-80b-a3b', '--runtime', 'vllm', '--gpus', '4', '--device', 'h100-sxm', '--context', '262144', '--prefix-caching', 'off', '--mamba-ssm-cache-dtype', 'float32']);
  await page.waitForFunction((l) => document.querySelector('#hr-vllm-budget')?.textContent.includes(l), f32.vllm.log[0], { timeout: 10000 });
  assert(f32.vllm.log[0] !== off.vllm.log[0], 'the FP32 state changes the block');
  assertEq((await linkOf(page)).search, f32.link, 'the page link is the CLI link (Mamba dtype)');
  // A dense model has no such field.
  // Two pipeline stages of Llama-3.1-70B on H100s.
  await page.goto(`${base}?v=1&model=llama-3.1-70b&runtime=vllm&device=h100-sxm`);
  await ready(page);
  await page.click('#hr-vllm summary');
  assertEq(await page.locator('#hr-mamba-ssm').count(), 0, 'no Mamba dtype for a dense model');
  await page.fill('#hr-pp', '2');
  const pp = cli(['estimate', '--model', 'llama-3.1-70b', '--runtime', 'vllm', '--device', 'h100-sxm', '--pipeline-parallel-size', '2']);
  await waitBytes(page, '#hr-total-bytes', pp.memory.total);
  assertEq((await linkOf(page)).search, pp.link, 'the page link is the CLI link (pipeline)');
  // SGLang's Mamba pool with a fixed slot count.
  await page.goto(`${base}?v=1&model=qwen3-next-80b-a3b&runtime=sglang&gpus=4&device=h100-sxm`);
  await ready(page);
  await page.click('#hr-sglang summary');
  await page.fill('#hr-mamba-slots', '256');
  const sg = cli(['estimate', '--model', 'qwen3-next-80b-a3b', '--runtime', 'sglang', '--gpus', '4', '--device', 'h100-sxm', '--max-mamba-cache-size', '256']);
  await page.waitForFunction((l) => document.querySelector('#hr-sglang-budget')?.textContent.includes(l), sg.sglang.log[0], { timeout: 10000 });
  assert(sg.sglang.log[0].startsWith('Mamba Cache is allocated. max_mamba_cache_size: 256'), sg.sglang.log[0]);
  assertEq((await linkOf(page)).search, sg.link, 'the page link is the CLI link (SGLang Mamba)');
  await shot('desktop-sglang-mamba');
});

test('llama.cpp over two cards shows each card, and a tensor split moves layers as the CLI does', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&weights=q4_k_m&runtime=llama.cpp&gpus=2`);
  await ready(page);
  const even = cli(['estimate', '--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp', '--gpus', '2']);
  await waitBytes(page, '#hr-total-bytes', even.memory.total);
  const card = page.locator('#hr-llama-gpus');
  await card.waitFor({ timeout: 10000 });
  assertEq(await page.locator('#hr-llama-gpus tbody tr').count(), 2, 'one row per card');
  assert((await card.textContent()).includes(`${even.llama_gpus[1].first_layer}–${even.llama_gpus[1].end_layer - 1}`), 'the second card\'s layers as the CLI');
  await page.click('#hr-llama summary');
  await page.fill('#hr-tensor-split', '3,1');
  const split = cli(['estimate', '--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp', '--gpus', '2', '--tensor-split', '3,1']);
  await waitBytes(page, '#hr-total-bytes', split.memory.total);
  assertEq((await linkOf(page)).search, split.link, 'the page link is the CLI link (tensor split)');
  await shot('desktop-llama-gpus');
  // A share that is not a number: a message beside the field, the result marked stale.
  await page.fill('#hr-tensor-split', '1,x');
  await page.waitForFunction(() => document.querySelector('#hr-tensor-split-error')?.textContent.trim().length > 0, null, { timeout: 5000 });
  assertEq(await page.locator('#hr-tensor-split').getAttribute('aria-invalid'), 'true', 'the field says it is invalid');
  await page.fill('#hr-tensor-split', '');
  await waitBytes(page, '#hr-total-bytes', even.memory.total);
});

test('a Mac fit that leaves macOS less than its working reserve is a warning, not green', async ({ page, base, shot }) => {
  const link = '?v=1&model=llama-3.3-70b&weights=q6_k&ctx=24576&runtime=llama.cpp&device=m3-max-64gb&macgpu=1';
  await page.goto(`${base}${link}`);
  await ready(page);
  const verdict = page.locator('#hr-verdict');
  await verdict.waitFor({ timeout: 10000 });
  assertEq(await verdict.getAttribute('data-verdict'), 'fits', 'it fits');
  assert((await verdict.getAttribute('class')).includes('hr-verdict-tight'), 'shown as a warning');
  assert((await verdict.textContent()).includes('macOS'), 'the advice names macOS');
  await shot('desktop-mac-reserve-warning');
});

test('a multimodal model shows its encoder on its own line; text only leaves it out, as the CLI does', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=qwen3.5-27b&runtime=vllm&gpus=2`);
  await ready(page);
  const want = cli(['estimate', '--model', 'qwen3.5-27b', '--runtime', 'vllm', '--gpus', '2']);
  assert(want.memory.encoders > 0, 'the CLI counts the encoder');
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq(await bytesOf(page, '#hr-encoders-bytes'), want.memory.encoders, 'encoders as the CLI');
  await shot('desktop-encoders');
  await page.check('#hr-text-only');
  const text = cli(['estimate', '--model', 'qwen3.5-27b', '--runtime', 'vllm', '--gpus', '2', '--text-only']);
  await waitBytes(page, '#hr-total-bytes', text.memory.total);
  assertEq(await page.locator('#hr-encoders-bytes').count(), 0, 'no encoder line, text only');
  await page.waitForFunction(() => location.search.includes('text=1'), null, { timeout: 5000 });
  const command = await page.locator('#hr-commands').textContent();
  assert(command.includes('--limit-mm-per-prompt'), `vLLM is told to skip the encoder: ${command}`);
  await shot('desktop-text-only');
});

test('a hybrid model shows its recurrent state apart from the KV cache, and its layers', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=qwen3-next-80b-a3b&ctx=32768`);
  await ready(page);
  const want = cli(['estimate', '--model', 'qwen3-next-80b-a3b', '--context', '32768']);
  assert(want.memory.state > 0, 'the CLI reports a recurrent state');
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  assertEq(await bytesOf(page, '#hr-kv-cache-bytes'), want.memory.kv_cache, 'KV cache as the CLI');
  assertEq(await bytesOf(page, '#hr-state-bytes'), want.memory.state, 'recurrent state as the CLI');
  await page.click('#hr-layers summary');
  const rows = await page.locator('#hr-layers tbody tr').count();
  assertEq(rows, want.model.layers.length, 'one row per run of layers');
  await page.locator('#hr-layers').filter({ hasText: 'Gated DeltaNet' }).waitFor();
  assertEq(await page.locator('#hr-warnings').count(), 0, 'a known family shows no warning');
  await shot('desktop-hybrid-state-layers');
});

test('Llama 3.2 Vision runs in transformers: its image cache is said, and vLLM is refused by name', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const file = path.join(root, 'tests', 'fixtures', 'configs', 'llama-3.2-90b-vision-instruct.json');
  const want = await pasteConfig(page, file);
  const kv = want.breakdown.find((t) => t.term === 'kv_cache');
  assert(kv.assumptions.some((a) => a.includes('6,432')), 'the CLI says the image positions');
  // The KV term's assumptions (inside its folded details) say the image's positions.
  await page.waitForFunction(() => [...document.querySelectorAll('ul.hr-assume li')]
    .some((li) => li.textContent.includes('6,432 positions')));
  await shot('desktop-cross-attention');
  await page.selectOption('#hr-runtime', 'vllm');
  const refusal = page.locator('.hr-error-card[role="alert"]');
  await refusal.filter({ hasText: 'cross-attention' }).waitFor();
  assert((await refusal.textContent()).includes('choose transformers'), 'the way out is named');
  await shot('desktop-cross-attention-vllm');
});

test('a runtime that cannot load the model says why, fits nowhere and writes no command; one that can does', async ({ page, base, shot }) => {
  const q = '?v=1&model=opt-1.3b&runtime=llama.cpp&device=rtx-4090';
  const want = cli(['estimate', '--model', 'opt-1.3b', '--runtime', 'llama-cpp', '--device', 'rtx-4090']);
  assertEq(want.fit.verdict, 'no', 'the CLI refuses it');
  await page.goto(base + q);
  await ready(page);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  const warning = page.locator('#hr-warnings li').filter({ hasText: 'no class for `OPTForCausalLM`' });
  await warning.waitFor();
  assertEq((await warning.textContent()).trim(), want.warnings[0], 'the CLI\'s warning, word for word');
  const answer = page.locator('#hr-answer');
  assertEq(await answer.getAttribute('data-verdict'), 'no', 'the device says no');
  const said = await answer.textContent();
  assert(said.includes('llama.cpp cannot load this model') && !said.includes('needs'), `the reason, not memory: ${said}`);
  assert((await page.locator('#hr-commands').textContent()).includes('No command'), 'no llama-server line');
  assert((await page.locator('#hr-verdict').textContent()).includes('cannot run'), 'cannot run, not "does not fit"');
  // The runtime choice says which runtimes cannot load it before one is picked.
  const label = async (v) => (await page.locator(`#hr-runtime option[value="${v}"]`).textContent()).trim();
  assertEq(await label('llama.cpp'), 'llama.cpp — cannot load this model', 'llama.cpp marked');
  assertEq(await label('mlx'), 'MLX — cannot load this model', 'mlx-lm has no OPT either');
  assertEq(await label('vllm'), 'vLLM', 'vLLM loads OPT');
  await shot('desktop-runtime-cannot-load');
  await page.selectOption('#hr-runtime', 'vllm');
  const vllm = cli(['estimate', '--model', 'opt-1.3b', '--runtime', 'vllm', '--device', 'rtx-4090']);
  await page.locator('#hr-answer[data-verdict="fits"]').waitFor();
  await waitBytes(page, '#hr-total-bytes', vllm.memory.total);
  assertEq(await page.locator('#hr-warnings').count(), 0, 'vLLM loads OPT: no warning');
  assert((await page.locator('#hr-commands').textContent()).includes('vllm serve facebook/opt-1.3b'), 'the vLLM command');
});

test('DeepSeek-V4.1-Flash on eight H200s: its n-gram tables in system RAM, its weights on the GPUs, as the CLI says', async ({ page, base, shot }) => {
  const q = '?v=1&model=deepseek-v4.1-flash&runtime=vllm&device=h200&gpus=8&ep=1';
  const want = cli(['estimate', '--model', 'deepseek-v4.1-flash', '--runtime', 'vllm', '--device', 'h200', '--gpus', '8', '--enable-expert-parallel']);
  await page.goto(base + q);
  await ready(page);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  // The tables' 264 GiB of pinned host memory is the RAM card's, not the GPUs'.
  const ram = Number(await page.locator('#hr-res-ram strong').getAttribute('data-bytes'));
  assertEq(ram, want.host.total, 'system RAM as the CLI');
  assert(ram >= 264 * 2 ** 30, `the pinned tables: ${ram}`);
  const note = page.locator('.hr-notes li').filter({ hasText: 'n-gram tables' });
  await note.waitFor();
  assert((await note.textContent()).includes('pinned CPU memory'), 'where vLLM keeps them');
  assertEq(await page.locator('#hr-answer').getAttribute('data-verdict'), 'fits', 'fits on the H200s');
  // The cards filled after the answer (the context chart) fill for this model too.
  await page.locator('.hr-chart svg').waitFor({ timeout: 15000 });
  await shot('desktop-v41-host-tables');
});

test('Inkling-Small on eight H200s: its towers counted, vLLM\'s log with its convolution state paged, as the CLI says', async ({ page, base, shot }) => {
  const q = '?v=1&model=inkling-small&runtime=vllm&device=h200&gpus=8';
  const want = cli(['estimate', '--model', 'inkling-small', '--runtime', 'vllm', '--device', 'h200', '--gpus', '8']);
  await page.goto(base + q);
  await ready(page);
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  const enc = want.breakdown.find((t) => t.term === 'encoders');
  assert(enc && enc.bytes === 2 * (64080384 + 5246976), `the patch encoder and the dMel table: ${JSON.stringify(enc)}`);
  // The budget vLLM will log, its concurrency with the convolution states' pages, as the CLI.
  const card = page.locator('#hr-vllm-budget');
  await card.waitFor();
  const text = await card.textContent();
  for (const line of want.vllm.log) assert(text.includes(line), `the card shows "${line}": ${text}`);
  assert(want.vllm.max_concurrency > 10 && want.vllm.max_concurrency < 200, `concurrency ${want.vllm.max_concurrency}`);
  assertEq(await page.locator('#hr-answer').getAttribute('data-verdict'), 'fits', 'fits on the H200s');
  await shot('desktop-inkling-small');
});

test('dots3-note pasted: full and sliding latent layers, its ViT and audio tower, as the CLI reads them', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const file = path.join(root, 'tests', 'fixtures', 'configs', 'dots3-note-prev.json');
  const want = await pasteConfig(page, file);
  assertEq(want.model.params_total, 279551729536, 'the text model, as transformers builds it');
  const enc = want.breakdown.find((t) => t.term === 'encoders');
  assert(enc && enc.bytes === 2 * (6871277920 + 886199680), `the MoE ViT and the audio tower: ${JSON.stringify(enc)}`);
  // The two geometries are in the model's summary on the page.
  await page.getByText('33× sliding MLA').first().waitFor();
  await page.getByText('window 513').first().waitFor();
  await shot('desktop-dots3-note');
});

test('Step 5 and Inkling 2 pasted: their layers and towers as the CLI reads them', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const step5 = path.join(root, 'tests', 'fixtures', 'configs', 'step5-preview.json');
  const want = await pasteConfig(page, step5);
  assertEq(want.model.params_total, 598476053952, 'the text model, as the release lists its tensors');
  const enc = want.breakdown.find((t) => t.term === 'encoders');
  assert(enc && enc.bytes === 2 * (1955848960 + 25165824), `the Perception Encoder and its projector: ${JSON.stringify(enc)}`);
  // The two layer kinds are in the model's summary on the page.
  await page.getByText('69× sliding attention').first().waitFor();
  await shot('desktop-step5');
  const ink = path.join(root, 'tests', 'fixtures', 'configs', 'transformers-defaults', 'inkling2.json');
  const i2 = await pasteConfig(page, ink);
  assertEq(i2.model.params_total, 593722948608, 'Inkling 2 as its files store it');
  await page.getByText('40× sliding attention').first().waitFor();
  await shot('desktop-inkling2');
});

test('a config named by the class vLLM loads is read as that family and said; a small VLM counts its tower', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const conversion = path.join(root, 'tests', 'fixtures', 'configs', 'quantized', 'deepseek-v4-flash-fp8-sglang.json');
  const want = await pasteConfig(page, conversion);
  // The notice that `deepseek_ref` was read by its `architectures` class is on the page.
  await page.locator('#hr-warnings').filter({ hasText: 'DeepseekV4ForCausalLM' }).waitFor();
  assert(want.warnings.some((w) => w.includes('DeepseekV4ForCausalLM')), 'the CLI says it too');
  await shot('desktop-family-by-architecture');
  const vlm = path.join(root, 'tests', 'fixtures', 'configs', 'transformers-defaults', 'paddleocr_vl.json');
  const ocr = await pasteConfig(page, vlm);
  const enc = ocr.breakdown.find((t) => t.term === 'encoders');
  assert(enc && enc.bytes > 800e6, `the tower is counted: ${JSON.stringify(enc)}`);
  await shot('desktop-ocr-tower');
});

test('ERNIE 4.5 VL with its image-only experts and Unlimited-OCR with its DeepEncoder read as the CLI reads them', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const ernie = path.join(root, 'tests', 'fixtures', 'configs', 'transformers-defaults', 'ernie4_5_vl_moe.json');
  const want = await pasteConfig(page, ernie);
  assertEq(want.model.params_total, 28624635776, 'the language model with both expert sets');
  // The second expert set is in the model's summary on the page.
  await page.getByText('+ 64 for image tokens').first().waitFor();
  await shot('desktop-ernie-vl');
  const ocr = path.join(root, 'tests', 'fixtures', 'configs', 'transformers-defaults', 'unlimited_ocr.json');
  const o = await pasteConfig(page, ocr);
  const enc = o.breakdown.find((t) => t.term === 'encoders');
  assert(enc && enc.bytes > 790e6, `the DeepEncoder is counted: ${JSON.stringify(enc)}`);
  // A known family: no "not one Headroom knows" warning.
  assert(!(await page.locator('#hr-warnings').innerText().catch(() => '')).includes('not one Headroom knows'), 'read exactly');
  await shot('desktop-unlimited-ocr');
});

test('DeepSeek-OCR with its DeepEncoder and a looped model (Dory) read as the CLI reads them', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const ocr = path.join(root, 'tests', 'fixtures', 'configs', 'deepseek-ocr.json');
  const o = await pasteConfig(page, ocr);
  assertEq(o.model.params_total, 2934734080, 'the language model from language_config');
  const enc = o.breakdown.find((t) => t.term === 'encoders');
  assert(enc && enc.bytes === 2 * 401372160, `the DeepEncoder is counted: ${JSON.stringify(enc)}`);
  assert(!(await page.locator('#hr-warnings').innerText().catch(() => '')).includes('not one Headroom knows'), 'read exactly');
  await shot('desktop-deepseek-ocr');
  const dory = path.join(root, 'tests', 'fixtures', 'configs', 'transformers-defaults', 'dory.json');
  const d = await pasteConfig(page, dory);
  assertEq(d.model.params_total, 3975229440, 'the stored layers');
  // Its loop is in the model's summary on the page.
  await page.getByText('36 stored, 20 passes through them again').first().waitFor();
  await shot('desktop-dory-loop');
});

test('Kimi K3 with its MXFP4 experts and tower, and Zamba2 with its shared blocks, read as the CLI reads them', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const k3 = path.join(root, 'tests', 'fixtures', 'configs', 'kimi-k3.json');
  const k = await pasteConfig(page, k3);
  assertEq(k.model.params_total, 2779484476000, 'the text model as its checkpoint lists it');
  const enc = k.breakdown.find((t) => t.term === 'encoders');
  assert(enc && enc.bytes === 2 * 447358976, `the MoonViT tower is counted: ${JSON.stringify(enc)}`);
  // The weights term lists its MXFP4 experts and the BF16 rest.
  await page.waitForFunction(() => [...document.querySelectorAll('ul.hr-assume li')]
    .some((li) => li.textContent.includes('MXFP4') && li.textContent.includes('276 tensors')));
  assert(!(await page.locator('#hr-warnings').innerText().catch(() => '')).includes('not one Headroom knows'), 'read exactly');
  await shot('desktop-kimi-k3');
  const zamba = path.join(root, 'tests', 'fixtures', 'configs', 'transformers-defaults', 'zamba2.json');
  const z = await pasteConfig(page, zamba);
  assertEq(z.model.params_total, 2481848336, 'equal to transformers');
  await page.getByText('8 run a shared block stored by earlier layers').first().waitFor();
  await shot('desktop-zamba2');
});

test('an unknown family is inferred with a visible warning, or refused naming its keys', async ({ page, base, shot }) => {
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-config');
  const inferred = JSON.stringify({ model_type: 'brand_new_lm', hidden_size: 2048, intermediate_size: 5632,
    num_hidden_layers: 22, num_attention_heads: 32, num_key_value_heads: 4, vocab_size: 32000 });
  await page.fill('#hr-config', inferred);
  await page.click('#hr-config-read');
  await page.locator('#hr-warnings[data-confidence="inferred"]').waitFor();
  const file = path.join(root, 'target', 'e2e-inferred-config.json');
  fs.writeFileSync(file, inferred);
  const want = cli(['estimate', '--config', file]);
  assertEq(want.model.confidence, 'inferred', 'the CLI says inferred too');
  assert(want.warnings.length > 0, 'the CLI lists the warnings');
  await waitBytes(page, '#hr-total-bytes', want.memory.total);
  const [low, high] = [want.memory.total_low, want.memory.total_high];
  assert(high > 1.2 * want.memory.total && low < 0.9 * want.memory.total, `band widened: ${low}–${high}`);
  await shot('desktop-inferred-warning');
  const refused = JSON.stringify({ model_type: 'brand_new_lm', hidden_size: 2048, num_hidden_layers: 22,
    num_attention_heads: 32, vocab_size: 32000, intermediate_size: 5632, zero_expert_num: 64, ssm_state_size: 16 });
  await page.fill('#hr-config', refused);
  await page.click('#hr-config-read');
  await page.locator('.hr-error').filter({ hasText: '`zero_expert_num`' }).waitFor();
  await page.locator('.hr-error').filter({ hasText: 'safetensors' }).waitFor();
});

test('a broken link opens with a notice', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&params=banana&weights=fp12&zzz=1&device=rtx-9999`);
  const notice = page.locator('.hr-notice').first();
  await notice.waitFor();
  const text = await notice.textContent();
  for (const k of ['params', 'weights', 'zzz', 'device']) assert(text.includes(k), `${k} in ${text}`);
  await ready(page);
  await shot('desktop-bad-link');
});

test('compare: pin, change, see the differences, keep them in the link', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=llama-3.1-8b`);
  await ready(page);
  await page.click('#hr-pin');
  await page.selectOption('#hr-weights', 'q4_k_m');
  await page.locator('#hr-compare tr.hr-diff').first().waitFor();
  const diffs = await page.locator('#hr-compare tr.hr-diff').count();
  assert(diffs >= 3, `${diffs} differences`);
  const cmp = (await linkOf(page)).searchParams.get('cmp');
  assertEq(cmp, 'v=1', 'pinned scenario in the link');
  await page.reload();
  await page.locator('#hr-compare').waitFor();
  await page.locator('#hr-compare').scrollIntoViewIfNeeded();
  await shot('desktop-compare');
});

test('compare three named scenarios: units, a difference from the first, names and order kept in the link', async ({ page, base, shot }) => {
  const at = (w) => cli(['estimate', '--model', 'llama-3.1-8b', '--weights', w, '--device', 'rtx-4090']);
  await page.goto(`${base}?v=1&model=llama-3.1-8b&weights=bf16&device=rtx-4090`);
  await ready(page);
  await page.click('#hr-pin');
  await page.selectOption('#hr-weights', 'q8_0');
  await ready(page);
  await page.click('#hr-pin');
  await page.locator('#hr-pin-name-1').fill('Eight bits');
  await page.locator('#hr-pin-name-1').press('Enter');
  await page.selectOption('#hr-weights', 'q4_k_m');
  await page.locator('#hr-compare tr.hr-diff').first().waitFor();
  // Three scenario columns: A, the named one, the current one.
  const heads = await page.$$eval('#hr-compare thead th', (t) => t.length);
  assertEq(heads, 4, 'a quantity column and three scenarios');
  assertEq(await page.inputValue('#hr-pin-name-0'), 'A', 'the first is A until named');
  // The total row: each value as the CLI, the last two with their difference from A.
  const [a, b, c] = [at('bf16'), at('q8_0'), at('q4_k_m')];
  const total = page.locator('#hr-compare tbody tr').filter({ hasText: 'VRAM' });
  const cells = await total.locator('td').allTextContents();
  const gb = (x) => (x / 1e9).toFixed(2);
  assert(cells[0].startsWith(`${gb(a.memory.total)} GB`), `A: ${cells[0]}`);
  assert(cells[1].startsWith(`${gb(b.memory.total)} GB`), `B: ${cells[1]}`);
  assert(cells[2].startsWith(`${gb(c.memory.total)} GB`), `current: ${cells[2]}`);
  const pct = Math.round((c.memory.total - a.memory.total) / a.memory.total * 100);
  assert(cells[2].includes(`−${gb(a.memory.total - c.memory.total)} GB`) && cells[2].includes(`−${Math.abs(pct)}%`), `difference: ${cells[2]}`);
  // Kept in the link, names and order; a reload shows the same table.
  const url = await linkOf(page);
  const cmp = url.searchParams.getAll('cmp');
  assertEq(cmp.length, 2, 'two pinned in the link');
  assert(cmp[0].includes('weights=bf16') && cmp[1].includes('name=Eight') , `pinned: ${cmp}`);
  await page.reload();
  await ready(page);
  await page.locator('#hr-compare').waitFor();
  assertEq(await page.inputValue('#hr-pin-name-1'), 'Eight bits', 'name after reload');
  await page.locator('#hr-compare').scrollIntoViewIfNeeded();
  await shot('desktop-compare-three');
  // Open puts a pinned scenario in the inputs; removing the first makes the next the baseline.
  await page.click('#hr-compare [data-action="open"][data-arg="1"]');
  await page.locator('#hr-weights').evaluate((el) => el.value).then((v) => assertEq(v, 'q8_0', 'opened the named one'));
  await page.click('#hr-compare [data-action="unpin"][data-arg="0"]');
  await page.locator('#hr-pin-name-1').waitFor({ state: 'detached' });
  assertEq(await page.inputValue('#hr-pin-name-0'), 'Eight bits', 'the named one is first');
  assert((await page.locator('#hr-compare caption').textContent()).includes('Eight bits'), 'differences against it');
  await axe(page, 'compare');
  await page.click('#hr-unpin');
  await page.locator('#hr-compare').waitFor({ state: 'detached' });
  assertEq((await linkOf(page)).searchParams.getAll('cmp').length, 0, 'nothing pinned');
});

test('sizes in GB, GiB or both, the choice kept in the link and used in the chart and French', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&model=llama-3.1-8b&device=rtx-4090`);
  await ready(page);
  const total = cli(['estimate', '--model', 'llama-3.1-8b', '--device', 'rtx-4090']).memory.total;
  const shown = () => page.locator('#hr-total-bytes').first().textContent();
  assert((await shown()).includes('GB (') && (await shown()).includes('GiB)'), 'both by default');
  await page.selectOption('#hr-units', 'gib');
  await page.waitForFunction(() => !document.querySelector('#hr-total-bytes').textContent.includes(' GB'));
  const gib = (total / 2 ** 30).toFixed(2);
  assert((await shown()).includes(`${gib} GiB`), `GiB only: ${await shown()}`);
  assertEq((await linkOf(page)).searchParams.get('units'), 'gib', 'in the link');
  await page.selectOption('#hr-units', 'gb');
  await page.waitForFunction(() => !document.querySelector('#hr-total-bytes').textContent.includes('GiB'));
  assert((await shown()).includes(`${(total / 1e9).toFixed(2)} GB`), `GB only: ${await shown()}`);
  const axis = await page.locator('.hr-chart .hr-axis').first().textContent();
  assert(axis.includes('GB'), `chart axis in GB: ${axis}`);
  await page.goto(`${base}?v=1&model=llama-3.1-8b&device=rtx-4090&units=gib&lang=fr`);
  await ready(page);
  assertEq(await page.inputValue('#hr-units'), 'gib', 'the link sets the choice');
  const fr = await shown();
  assert(fr.includes(`${gib.replace('.', ',')}\u00a0Gio`) && !fr.includes('Go ('), `French, GiB only: ${fr}`);
  await shot('desktop-units-gib-fr');
});

test('the device table keeps devices at least as fast as asked, and the cheapest question follows it', async ({ page, base, shot }) => {
  const flags = ['--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp'];
  await page.goto(`${base}?v=1&model=llama-3.1-8b&weights=q4_k_m&runtime=llama.cpp`);
  await ready(page);
  await page.locator('.hr-devices tbody tr[data-device]').first().waitFor();
  await page.fill('#hr-min-speed', '150');
  await page.press('#hr-min-speed', 'Enter');
  await page.waitForFunction(() => document.querySelector('#hr-min-speed')?.value === '150' && !document.querySelector('.hr-devices-body.hr-updating'));
  const fits = cli(['fit', ...flags]);
  const fast = fits.filter((f) => f.speed && f.speed.decode_tokens_per_s >= 150).map((f) => f.device);
  await page.click('.hr-devices [data-action="more"]').catch(() => {});
  const rows = await page.$$eval('.hr-devices tbody tr[data-device]', (r) => r.map((x) => x.dataset.device));
  assert(rows.length > 0 && rows.every((d) => fast.includes(d)), `only fast devices: ${rows.length} rows`);
  // The cheapest device at that speed, as the CLI finds it.
  const cheapest = cli(['recommend', ...flags, '--cheapest', '--min-tps', '150']);
  await page.click('#hr-ask-cheapest');
  await page.locator('#hr-question-answer').waitFor();
  assertEq(await page.locator('#hr-question-answer li a').first().textContent(), cheapest[0].name, 'cheapest at 150 tokens/s');
  assert((await page.locator('#hr-question-answer').textContent()).includes('at least 150'), 'the answer says the filter');
  await shot('desktop-min-speed');
  // Not a number: said beside the field, and no filter rather than an old one.
  await page.fill('#hr-min-speed', 'fast');
  await page.press('#hr-min-speed', 'Enter');
  await page.locator('#hr-min-speed-error').waitFor();
  assertEq(await page.locator('#hr-min-speed').getAttribute('aria-invalid'), 'true', 'marked invalid');
  // French reads the page's numbers: a grouped thousand.
  await page.click('#hr-lang');
  await page.fill('#hr-min-speed', '1 000');
  await page.press('#hr-min-speed', 'Enter');
  await page.locator('.hr-devices td.hr-none').waitFor();
});

test('a published measurement shows beside the estimate at its own setting, as the CLI reports it', async ({ page, base, shot }) => {
  const flags = ['--model', 'llama-2-7b', '--weights', 'q4_0', '--runtime', 'llama.cpp', '--device', 'rtx-4090'];
  const v = cli(['estimate', ...flags]);
  await page.goto(`${base}?v=1&model=llama-2-7b&weights=q4_0&runtime=llama.cpp&device=rtx-4090`);
  await ready(page);
  const rows = page.locator('#hr-measured tbody tr');
  assertEq(await rows.count(), v.measured.length, 'as many as the CLI');
  for (const m of v.measured) {
    const row = page.locator(`#hr-measured tr[data-phase="${m.phase}"]`);
    assertEq(Number(await row.getAttribute('data-tps')), m.tokens_per_s, `${m.phase} measured`);
    const text = await row.textContent();
    assert(text.includes(m.test) && text.includes(m.build), `${m.phase}: ${text}`);
    const est = m.estimated_tokens_per_s;
    const shown = est >= 100 ? est.toFixed(0) : est.toFixed(1);
    assert(text.includes(shown), `estimate there ${shown}: ${text}`);
    assert((await row.locator('a').getAttribute('href')).startsWith('https://github.com/ggml-org/llama.cpp/discussions/'), 'its source');
  }
  await page.locator('#hr-measured').scrollIntoViewIfNeeded();
  await shot('desktop-measured');
  // Another format has no measurement: no card.
  await page.selectOption('#hr-weights', 'q4_k_m');
  await page.locator('#hr-measured').waitFor({ state: 'detached' });
});

test('a shared-memory PC gives its GPU the share its OS does: said, changed in percent, as the CLI computes it', async ({ page, base, shot }) => {
  const flags = ['--model', 'llama-3.1-70b', '--weights', 'q4_k_m', '--runtime', 'llama.cpp', '--device', 'ryzen-ai-max-395-128gb'];
  await page.goto(`${base}?v=1&model=llama-3.1-70b&weights=q4_k_m&runtime=llama.cpp&device=ryzen-ai-max-395-128gb`);
  await ready(page);
  const def = cli(['estimate', ...flags]);
  assertEq(await page.locator('#hr-answer').getAttribute('data-verdict'), def.fit.verdict, 'default share (Linux: half)');
  assert((await page.locator('#hr-gpu-share-hint').textContent()).includes('50 %'), 'the default is shown');
  assert((await page.locator('.hr-results-body').textContent()).includes('ttm.pages_limit'), 'how to raise it is said');
  await page.fill('#hr-gpu-share', '90');
  await page.press('#hr-gpu-share', 'Enter');
  const raised = cli(['estimate', ...flags, '--gpu-share', '0.9']);
  await page.locator(`#hr-answer[data-verdict="${raised.fit.verdict}"]`).waitFor();
  assertEq((await linkOf(page)).searchParams.get('macgpu'), '0.9', 'kept in the link');
  assert(raised.fit.capacity > def.fit.capacity, 'more for the GPU');
  await page.fill('#hr-gpu-share', '5');
  await page.press('#hr-gpu-share', 'Enter');
  await page.locator('#hr-gpu-share[aria-invalid="true"]').waitFor();
  await page.fill('#hr-gpu-share', '90');
  await page.press('#hr-gpu-share', 'Enter');
  // The device table has them under their own kind.
  await page.click('.hr-devices [data-action="kind"][data-arg="apu"]');
  const rows = await page.$$eval('.hr-devices tbody tr[data-device]', (r) => r.map((x) => x.dataset.device));
  const apus = cli(['devices', '--kind', 'apu']).map((d) => d.id).sort();
  assertEq(rows.slice().sort().join(','), apus.join(','), 'the shared-memory PCs');
  await shot('desktop-apu-share');
});

test('French and dark theme, kept in the link', async ({ page, base, shot }) => {
  await page.goto(`${base}?v=1&device=rtx-4090`);
  await ready(page);
  await page.click('#hr-lang');
  await page.locator('#hr-verdict').filter({ hasText: 'tient' }).waitFor();
  await page.click('#hr-theme');
  const url = (await linkOf(page));
  assertEq(url.searchParams.get('lang'), 'fr', 'language in the link');
  assert(['dark', 'light'].includes(url.searchParams.get('theme')), 'theme in the link');
  await page.goto(`${base}?v=1&device=rtx-4090&lang=fr&theme=dark`);
  await ready(page);
  assertEq(await page.evaluate(() => document.documentElement.getAttribute('data-hr-theme')), 'dark', 'dark theme');
  assertEq(await page.evaluate(() => document.documentElement.lang), 'fr', 'html lang');
  await axe(page, 'dark French');
  await shot('desktop-dark-fr');
});

test('accessibility: no axe violation of any impact', async ({ page, base }) => {
  await page.goto(`${base}?v=1&model=mixtral-8x7b&weights=q4_k_m&device=rtx-4090&mode=inference`);
  await ready(page);
  metrics.axe_desktop = await axe(page, 'desktop');
  await page.click('#hr-mode-lora');
  await ready(page);
  await axe(page, 'LoRA');
});

test('phone: 360 px wide, nothing overflows', async ({ context, base, outDir }) => {
  const page = await context.newPage();
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`${base}?v=1&model=qwen2.5-7b&device=m3-max-64gb`);
  await ready(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `horizontal overflow of ${overflow}px`);
  // Every tap target at least 24 × 24 px (WCAG 2.5.8), the device table's included.
  await page.locator('.hr-devices tbody tr').first().waitFor();
  const small = await page.$$eval('button, a, input, select, summary, textarea', (els) => els.filter((e) => {
    const r = e.getBoundingClientRect();
    return !(r.width === 0 && r.height === 0) && (r.height < 24 || r.width < 24);
  }).map((e) => `${e.tagName.toLowerCase()}#${e.id} ${Math.round(e.getBoundingClientRect().width)}×${Math.round(e.getBoundingClientRect().height)}`));
  assertEq(small.join(', '), '', 'tap targets under 24 px');
  await axe(page, 'phone');
  await page.screenshot({ path: path.join(outDir, 'phone.png'), fullPage: true });
  await page.close();
});

test('embedded in a page of another origin, the frame resizes itself', async ({ page, base, outDir }) => {
  const src = `${base}?v=1&model=qwen3-8b&weights=q4_k_m&device=rtx-4090&embed=1`;
  const host = await serve(here, {
    extra: (req, res) => {
      if (!req.url.startsWith('/docs')) return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><title>Docs</title><link rel="icon" href="data:,"></head><body style="font-family:sans-serif">
        <h1>Our model's requirements</h1><p>The calculator below is live:</p>
        <iframe class="headroom-embed" src="${src}" width="100%" height="150" style="border:1px solid #ccc" title="Headroom"></iframe>
        <script src="${base}embed.js"></script><p>Text after the frame.</p></body></html>`);
      return true;
    },
  });
  const hostBase = `http://localhost:${host.address().port}/docs`;
  assert(!hostBase.startsWith(base), 'another origin');
  await page.setViewportSize({ width: 900, height: 900 });
  await page.goto(hostBase);
  await page.waitForFunction(() => document.querySelector('iframe')?.getAttribute('data-headroom-height'), null, { timeout: 15000 });
  const h = await page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
  assert(h > 150, `frame height ${h}`);
  // Its content's height, not its viewport's: a frame set taller shrinks to the content.
  const inner = await page.frameLocator('iframe').locator('main.hr-embed').evaluate((m) => m.getBoundingClientRect().height);
  assert(Math.abs(h - inner) <= 2, `frame ${h} px for content of ${inner} px`);
  // The host makes the frame taller and a little narrower (a responsive layout): the content
  // reflows, and the frame comes back to the content's height.
  await page.evaluate(() => { const f = document.querySelector('iframe'); f.style.height = '2000px'; f.style.width = '97%'; });
  await page.waitForFunction((want) => {
    const f = document.querySelector('iframe');
    return Math.abs(f.getBoundingClientRect().height - want) <= 2;
  }, inner, { timeout: 10000 }).catch(async () => {
    throw new Error(`a 2000 px frame did not shrink to ${inner} px: ${await page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height)}`);
  });
  const frame = page.frameLocator('iframe');
  const want = cli(['estimate', '--model', 'qwen3-8b', '--weights', 'q4_k_m', '--device', 'rtx-4090']);
  assertEq(Number(await frame.locator('#hr-total-bytes').getAttribute('data-bytes')), want.memory.total, 'embedded total');
  assertEq(await frame.locator('#hr-verdict').getAttribute('data-verdict'), 'fits', 'embedded verdict');
  await page.screenshot({ path: path.join(outDir, 'embed-host.png'), fullPage: true });
  host.close();
});

test('the embed view alone, with axe', async ({ page, base, shot }) => {
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto(`${base}?v=1&model=mixtral-8x7b&weights=q4_k_m&device=m2-ultra-192gb&embed=1`);
  await ready(page);
  await axe(page, 'embed');
  await shot('embed');
});

test('the JavaScript API computes a link from a page of another origin, without the interface', async ({ page, base }) => {
  const host = await serve(here, {
    extra: (req, res) => {
      if (!req.url.startsWith('/api')) return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><head><title>API</title><link rel="icon" href="data:,"></head><body><p>docs</p></body></html>');
      return true;
    },
  });
  await page.goto(`http://localhost:${host.address().port}/api`);
  const result = await page.evaluate(async (b) => {
    const m = await import(`${b}headroom-web.js`);
    await m.default({ module_or_path: `${b}headroom-web_bg.wasm` });
    const r = m.estimate('?v=1&model=llama-3.1-8b&weights=q4_k_m&device=rtx-4090');
    return { total: r.memory.total, verdict: r.fit.verdict, ui: !!document.querySelector('.hr-app') };
  }, base);
  host.close();
  const want = cli(['estimate', '--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--device', 'rtx-4090']);
  assertEq(result.total, want.memory.total, 'API total');
  assertEq(result.verdict, want.fit.verdict, 'API verdict');
  assertEq(result.ui, false, 'no interface mounted on a foreign page');
});


test('a Hugging Face address reads config.json and safetensors headers: exact bytes, as the CLI', async ({ page, base, shot }) => {
  await hubClear();
  await page.goto(`${base}?v=1&hub=${encodeURIComponent(hubBase)}`);
  await ready(page);
  await page.click('#hr-source-hub');
  await page.fill('#hr-hf', 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/blob/main/config.json');
  await page.click('#hr-hf-read');
  await page.locator('#hr-hf-status').filter({ hasText: 'safetensors' }).waitFor({ timeout: 15000 });
  const want = cli(['estimate', '--safetensors', fx('hub/Qwen/Qwen2.5-0.5B-Instruct/model.safetensors')]);
  await waitBytes(page, '#hr-weights-bytes', want.memory.weights);
  assertEq(await bytesOf(page, '#hr-total-bytes'), want.memory.total, 'total');
  const url = (await linkOf(page));
  assertEq(url.searchParams.get('hf'), 'Qwen/Qwen2.5-0.5B-Instruct', 'hf in the link');
  assertEq(url.searchParams.get('hub'), hubBase, 'hub in the link');
  const log = await hubLog();
  headersOnly(log);
  assert(log.every((e) => !e.auth), 'no token was sent');
  // GPTQ: packed int32 tensors read as stored.
  await page.fill('#hr-hf', 'Qwen/Qwen2.5-0.5B-Instruct-GPTQ-Int4');
  await page.click('#hr-hf-read');
  const gptq = cli(['estimate', '--safetensors', fx('hub/Qwen/Qwen2.5-0.5B-Instruct-GPTQ-Int4/model.safetensors')]);
  await waitBytes(page, '#hr-weights-bytes', gptq.memory.weights);
  // Sharded FP8: the index, then each shard's header.
  await hubClear();
  await page.fill('#hr-hf', 'Qwen/Qwen3-0.6B-FP8');
  await page.click('#hr-hf-read');
  const fp8 = cli(['estimate', '--safetensors', fx('hub/Qwen/Qwen3-0.6B-FP8/model.safetensors.index.json')]);
  await waitBytes(page, '#hr-weights-bytes', fp8.memory.weights);
  headersOnly(await hubLog());
  // The link alone reads the model again on opening (once written: it follows changes when they pause).
  await linkOf(page);
  await page.reload();
  await waitBytes(page, '#hr-weights-bytes', fp8.memory.weights);
  await shot('desktop-hub-model');
  // A bad id is a message; the last model stays.
  await page.fill('#hr-hf', 'not a model');
  await page.click('#hr-hf-read');
  await page.locator('#hr-hf-error').filter({ hasText: 'org/name' }).waitFor();
  await page.fill('#hr-hf', 'nobody/nothing');
  await page.click('#hr-hf-read');
  await page.locator('#hr-hf-error').filter({ hasText: 'not found' }).waitFor();
  assertEq(await bytesOf(page, '#hr-weights-bytes'), fp8.memory.weights, 'the last model stays');
}, { httpErrors: true });

test('a gated model asks for a token, reads with it, and the token goes nowhere else', async ({ page, base, shot }) => {
  await hubClear();
  await page.goto(`${base}?v=1&hub=${encodeURIComponent(hubBase)}&hf=meta-llama/Llama-3.2-1B`);
  await ready(page);
  const err = page.locator('#hr-hf-error').filter({ hasText: 'gated' });
  await err.waitFor({ timeout: 15000 });
  await shot('desktop-hub-gated');
  await page.click('.hr-token summary');
  await page.fill('#hr-hf-token', 'hf_wrong');
  await page.click('#hr-hf-read');
  await page.locator('#hr-hf-error').filter({ hasText: 'no access' }).waitFor();
  await page.fill('#hr-hf-token', TOKEN);
  await page.click('#hr-hf-read');
  const want = cli(['estimate', '--safetensors', fx('hub/meta-llama/Llama-3.2-1B/model.safetensors')]);
  await waitBytes(page, '#hr-weights-bytes', want.memory.weights);
  assert(!(await linkOf(page)).href.includes(TOKEN), 'the token is not in the link');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
  assert(!stored.includes(TOKEN), 'the token is not stored');
  const log = await hubLog();
  headersOnly(log);
  assert(log.some((e) => e.auth === `Bearer ${TOKEN}`), 'the token was sent to the hub');
  assert(log.every((e) => !e.path.includes(TOKEN)), 'never in a URL');
}, { httpErrors: true });

test('a GGUF on the Hub is read in chunks, a dropped one locally; both equal the CLI', async ({ page, base, shot }) => {
  await hubClear();
  await page.goto(`${base}?v=1&hub=${encodeURIComponent(hubBase)}&hf=bartowski/Llama-3.2-1B-Instruct-GGUF`);
  const gguf = fx('gguf/llama-1b-q4_k_m.gguf');
  const want = cli(['estimate', '--gguf', gguf]);
  await waitBytes(page, '#hr-weights-bytes', want.memory.weights);
  assertEq(await bytesOf(page, '#hr-total-bytes'), want.memory.total, 'Hub GGUF total');
  const log = await hubLog();
  headersOnly(log);
  const ranged = log.filter((e) => e.path.endsWith('.gguf'));
  assert(ranged.length >= 2, `the 1.8 MB header took several chunks (${ranged.length})`);
  assertEq((await linkOf(page)).searchParams.get('hf'), 'bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q4_K_M.gguf', 'file in the link');
  // Local files: the same file picked, then a split model with a part missing, then whole.
  await page.goto(base);
  await ready(page);
  await page.click('#hr-source-file');
  await page.setInputFiles('#hr-gguf-file', fx('gguf/qwen2-0.5b-f16.gguf'));
  const q = cli(['estimate', '--gguf', fx('gguf/qwen2-0.5b-f16.gguf')]);
  await waitBytes(page, '#hr-weights-bytes', q.memory.weights);
  assertEq(await bytesOf(page, '#hr-total-bytes'), q.memory.total, 'local GGUF total');
  await shot('desktop-gguf-file');
  await page.setInputFiles('#hr-gguf-file', fx('gguf/llama-split-00001-of-00002.gguf'));
  await page.locator('#hr-file-error').filter({ hasText: '00002' }).waitFor();
  await page.setInputFiles('#hr-gguf-file', [fx('gguf/llama-split-00001-of-00002.gguf'), fx('gguf/llama-split-00002-of-00002.gguf')]);
  const split = cli(['estimate', '--gguf', fx('gguf/llama-split-00001-of-00002.gguf')]);
  await waitBytes(page, '#hr-weights-bytes', split.memory.weights);
  // Not a GGUF: a clear message, the model stays.
  const junk = path.join(here, 'out', 'junk.gguf');
  fs.writeFileSync(junk, 'GGML not really');
  await page.setInputFiles('#hr-gguf-file', junk);
  await page.locator('#hr-file-error').filter({ hasText: 'GGUF' }).waitFor();
  assertEq(await bytesOf(page, '#hr-weights-bytes'), split.memory.weights, 'the last model stays');
});

test('a read in flight can be cancelled and the page keeps its model', async ({ page, base }) => {
  await page.goto(`${base}?v=1&hub=${encodeURIComponent(hubBase)}`);
  await ready(page);
  const before = await bytesOf(page, '#hr-total-bytes');
  await hubDelay(3000);
  try {
    await page.click('#hr-source-hub');
    await page.fill('#hr-hf', 'Qwen/Qwen2.5-0.5B-Instruct');
    await page.click('#hr-hf-read');
    await page.locator('#hr-hf-cancel').click({ timeout: 5000 });
    await page.locator('#hr-hf-error').filter({ hasText: 'cancelled' }).waitFor();
  } finally {
    await hubDelay(0);
  }
  assertEq(await bytesOf(page, '#hr-total-bytes'), before, 'unchanged');
  assert(!(await linkOf(page)).searchParams.get('hf'), 'no hf in the link');
});

const { failed } = await run({ dist: process.argv[2] || path.join(root, 'dist'), outDir: path.join(here, 'out') });
fs.writeFileSync(path.join(here, 'out', 'metrics.json'), JSON.stringify(metrics, null, 2));
hub.server.close();
process.exit(failed ? 1 : 0);

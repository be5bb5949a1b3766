// SPDX-License-Identifier: MIT
// gui/browser (test_browser.sh): a debugging session of
// examples/alchemy/inversion in fusion sim --gui, in headless chromium.
// Break when high blocks, run to 0 (its first sleep) then to 1 ms (the
// lock low holds); check the status, the timeline, the thread and
// object panels, the event log; go to 2 ms (low boosted), restart,
// remove the breakpoint, step, run until 3 ms.  The screenshot is of
// the stop at 2 ms: the inversion bounded by low's boost.

import assert from 'node:assert/strict';

import { runInBrowser } from './browser.mjs';

async function session(page, url) {
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
  // Everything the page loads is ours: no CDN, no other host.
  page.on('request', (r) => r.url().startsWith(url) || problems.push(`request: ${r.url()}`));

  const status = page.locator('#status');
  const cells = (row) => row.locator('td').allTextContents();
  const step = (what) => console.log(`- ${what}`);
  // A control that runs the program says "running" until the stop's
  // status, set once the panels show it.
  const settled = () => page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('running'));

  step('the page loads, paused at the start');
  await page.goto(url);
  await page.waitForSelector('body[data-ready="yes"]');
  assert.equal(await status.textContent(), 'paused at 0 ns');

  step('a breakpoint on high blocking');
  await page.selectOption('#break-kind', 'block');
  await page.fill('#break-arg', 'high');
  await page.click('#break-add');
  await page.waitForSelector('#break-list li[data-id="1"]');
  assert.match(await page.locator('#break-list li').textContent(), /^#1 block:high \(hits 0\)/);

  step('run: high blocks first on its sleep, at 0');
  await page.click('#run');
  await settled();
  assert.equal(await status.textContent(), 'paused at 0 ns: breakpoint 1, block high delay');

  step('run again: high blocks on the lock at 1 ms');
  await page.click('#run');
  await settled();
  assert.equal(await status.textContent(), 'paused at 1.000 ms: breakpoint 1, block high lock');
  assert.equal(await page.locator('#cursor-date').textContent(), '1.000 ms');
  assert.match(await page.locator('#break-list li').textContent(), /^#1 block:high \(hits 2\)/);

  step('the timeline: a row per thread, high blocked on lock from 1 ms, low ran from 0 to 1 ms');
  const svg = page.locator('#timeline svg');
  const labels = await svg.locator('text.row-label').evaluateAll((ts) => ts.map((t) => t.firstChild.nodeValue));
  assert.deepEqual(labels, ['IRQs', 'main', 'high', 'mid', 'low']);
  const title = await svg.locator('text.row-label[data-thread="high"] title').textContent();
  assert.equal(title, 'high at 1.000 ms: blocked on lock');
  const blocked = svg.locator('rect.slice[data-thread="high"][data-state="blocked"][data-on="lock"]');
  assert.equal(await blocked.count(), 1);
  assert.equal(await blocked.getAttribute('data-start'), '1000000');
  assert.match(await blocked.locator('title').textContent(), /^high: blocked on lock, prio 31, 1\.000 ms to the pause$/);
  const lowRan = svg.locator('rect.slice[data-thread="low"][data-state="running"][data-start="0"]');
  assert.equal(await lowRan.count(), 1);
  assert.match(await lowRan.locator('title').textContent(), /to 1\.000 ms$/);
  assert.equal(await svg.locator('rect.slice[data-thread="mid"][data-state="blocked"][data-on="delay"]').count(), 1);

  step('the thread panel at the pause: high waits for lock');
  assert.deepEqual((await cells(page.locator('#threads tr[data-thread="high"]'))).slice(0, 5), [
    'high',
    'waiting',
    'lock',
    '31',
    '31',
  ]);
  assert.deepEqual((await cells(page.locator('#threads tr[data-thread="low"]'))).slice(0, 2), ['low', 'ready']);

  step('the object panel: lock, owned by low, high waiting');
  const lock = await cells(page.locator('#objects tr[data-object="lock"]'));
  assert.deepEqual([lock[0], lock[1], lock[2], lock[4], lock[5]], ['alchemy', 'mutex', 'lock', 'low', 'high']);

  step('the event log, filtered on "lock"');
  await page.fill('#log-filter', 'lock');
  const rows = page.locator('#log-body tr');
  const texts = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent).join('|')));
  assert.ok(texts.includes('1.000 ms|cpu0|block|high lock 0'), texts.join('\n'));
  assert.ok(texts.every((t) => t.includes('lock')));
  await page.fill('#log-filter', '');

  step('zoom and pan: the axis changes');
  const ticks = async () => (await svg.locator('text.tick').allTextContents()).join(' ');
  const before = await ticks();
  await page.click('#zoom-in');
  const zoomed = await ticks();
  assert.notEqual(zoomed, before);
  const box = await svg.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 60);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 300, box.y + 60, { steps: 5 });
  await page.mouse.up();
  assert.notEqual(await ticks(), zoomed);
  // A drag moves the view, not the cursor.
  assert.equal(await page.locator('#cursor-date').textContent(), '1.000 ms');
  await page.click('#fit');
  assert.equal(await ticks(), before);

  step('the cursor at 0 from the log: the threads of the event log');
  await page.locator('#log-body tr').first().click();
  assert.equal(await page.locator('#cursor-date').textContent(), '0 ns');
  assert.match(await page.locator('#threads .note').textContent(), /from the event log/);
  assert.equal(await page.locator('#goto-cursor').count(), 1);

  step('go to 2 ms: low runs boosted to 31, high still waits');
  await page.fill('#goto-date', '2ms');
  await page.click('#goto-form button');
  await settled();
  assert.match(await status.textContent(), /^paused at 2\.000 ms/);
  const low = await cells(page.locator('#threads tr[data-thread="low"]'));
  assert.deepEqual(low.slice(0, 5), ['low', 'running', '', '31', '11']);
  assert.equal(await page.locator('#threads tr[data-thread="low"] td.boosted').count(), 1);
  assert.equal(await svg.locator('rect.slice.boosted[data-thread="low"]').count() > 0, true);
  await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });

  step('restart: at 0 again, the breakpoint kept; then removed');
  await page.click('#restart');
  await settled();
  assert.match(await status.textContent(), /^paused at 0 ns/);
  assert.match(await page.locator('#break-list li').textContent(), /^#1 block:high/);
  await page.click('#break-list li[data-id="1"] button');
  await page.waitForFunction(() => document.querySelectorAll('#break-list li').length === 0);

  step('step 2 events, then until 3 ms');
  await page.fill('#step-count', '2');
  await page.click('#step');
  await settled();
  assert.match(await status.textContent(), /^paused at 0 ns: step, /);
  await page.fill('#until-date', '3ms');
  await page.click('#until-form button');
  await settled();
  assert.equal(await status.textContent(), 'paused at 3.000 ms: until');

  assert.deepEqual(problems, []);
}

await runInBrowser('browser test', session, { width: 1280, height: 900 });

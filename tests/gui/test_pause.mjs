// SPDX-License-Identifier: MIT
// gui/browser, second part (test_browser.sh): on tests/gui/forever.c,
// which never ends, Run holds the page in "running", every other
// control disabled, until Pause stops it; then Pause is disabled.

import assert from 'node:assert/strict';

import { runInBrowser } from './browser.mjs';

async function pause(page, url) {
  const status = page.locator('#status');
  await page.goto(url);
  await page.waitForSelector('body[data-ready="yes"]');
  assert.equal(await page.locator('#pause').isDisabled(), true);

  console.log('- run: running, only Pause enabled');
  await page.click('#run');
  assert.equal(await status.textContent(), 'running (run)…');
  assert.equal(await page.locator('#pause').isEnabled(), true);
  assert.equal(await page.locator('#run').isDisabled(), true);
  assert.equal(await page.locator('#restart').isDisabled(), true);

  console.log('- pause: the run stops');
  // A pause before the run has reached the program does nothing:
  // press again until the page says it stopped.
  for (let i = 0; i < 50 && (await status.textContent()).startsWith('running'); i++) {
    // In the page: the button may be disabled by the stop meanwhile.
    await page.locator('#pause').evaluate((b) => b.disabled || b.click());
    await page.waitForTimeout(100);
  }
  assert.match(await status.textContent(), /^paused at [0-9.]+ [mun]?s: pause(, .+)?$/);
  assert.equal(await page.locator('#pause').isDisabled(), true);
  assert.equal(await page.locator('#run').isEnabled(), true);
}

await runInBrowser('pause test', pause);

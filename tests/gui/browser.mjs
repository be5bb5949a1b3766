// SPDX-License-Identifier: MIT
// What the browser tests share (test_browser.sh runs them): chromium
// launched headless through playwright-core (PW_MODULES: its
// node_modules; CHROMIUM: Debian's binary), a page of the GUI_URL the
// server printed, and the exit status: 0 when @test returns, 1 with
// the error when it throws.

import { createRequire } from 'node:module';

const require = createRequire(`${process.env.PW_MODULES}/`);
const { chromium } = require('playwright-core');

// @test(page, url) on a fresh page of @viewport's size (default if
// none); `NAME passed` printed after it.
export async function runInBrowser(name, test, viewport = undefined) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, headless: true });
  let failed = false;
  try {
    const page = await browser.newPage(viewport ? { viewport } : {});
    await test(page, process.env.GUI_URL);
    console.log(`${name} passed`);
  } catch (err) {
    failed = true;
    console.error(`FAIL: ${err.stack ?? err}`);
  } finally {
    await browser.close();
  }
  process.exit(failed ? 1 : 0);
}

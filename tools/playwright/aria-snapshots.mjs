#!/usr/bin/env node
// Prints Playwright's ARIA snapshot of each URL, as one JSON object { "<url>": "<snapshot>" }:
// the reference our own driver's snapshots are compared with.
//
//   node tools/playwright/aria-snapshots.mjs URL...
import { launch, run, settle } from './common.mjs';

run('aria-snapshots', async (urls) => {
  if (urls.length === 0) throw new Error('usage: node tools/playwright/aria-snapshots.mjs URL...');
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const snapshots = {};
    for (const url of urls) {
      const response = await page.goto(url, { waitUntil: 'load' });
      if (response && !response.ok()) throw new Error(`${url}: HTTP ${response.status()}`);
      await settle(page);
      snapshots[url] = await page.ariaSnapshot();
    }
    return snapshots;
  } finally {
    await browser.close();
  }
});

#!/usr/bin/env node
// Times Playwright on the fixture sites, the reference for `planwright bench`:
//
//   node tools/playwright/bench.mjs --base URL [--repeat N] [--pages a.html,b.html]
//
// Prints { launch_to_first_snapshot_ms, snapshot_ms: {page: [ms…]}, snapshot_text: {page: text},
// click_ms: [ms…], fill_ms: [ms…] }. Every page is loaded once with ?instant=1 and then timed N
// times. Without --pages: index.html and every page it links to.
import { launch, run, settle } from './common.mjs';

function parseArgs(argv) {
  const options = { base: null, repeat: 5, pages: null };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--base': options.base = value; i++; break;
      case '--repeat': options.repeat = Number(value); i++; break;
      case '--pages': options.pages = value.split(',').map((p) => p.trim()).filter(Boolean); i++; break;
      default: throw new Error(`unknown argument ${argv[i]}; usage: bench.mjs --base URL [--repeat N] [--pages a.html,b.html]`);
    }
  }
  if (!options.base) throw new Error('--base URL is required');
  if (!Number.isInteger(options.repeat) || options.repeat < 1) throw new Error('--repeat must be a positive integer');
  if (options.pages && options.pages.length === 0) throw new Error('--pages is empty');
  options.base = options.base.replace(/\/+$/, '') + '/';
  return options;
}

const now = () => process.hrtime.bigint();
const msSince = (start) => Number(now() - start) / 1e6;

async function open(page, base, path) {
  const url = new URL(path, base);
  url.searchParams.set('instant', '1');
  const response = await page.goto(url.href, { waitUntil: 'load' });
  if (response && !response.ok()) throw new Error(`${url.href}: HTTP ${response.status()}`);
  await settle(page);
}

// Times `action` n times; the first run is included: it is what a one-off step costs.
async function times(n, action) {
  const result = [];
  for (let i = 0; i < n; i++) {
    const start = now();
    await action();
    result.push(msSince(start));
  }
  return result;
}

run('bench', async (argv) => {
  const options = parseArgs(argv);
  const start = now();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    let pages = options.pages;
    if (!pages) {
      await open(page, options.base, 'index.html');
      const links = await page.getByRole('navigation', { name: 'Fixture pages' }).getByRole('link').evaluateAll(
        (anchors) => anchors.map((a) => a.getAttribute('href')),
      );
      pages = ['index.html', ...links];
    }
    await open(page, options.base, pages[0]);
    await page.ariaSnapshot();
    const launchToFirstSnapshot = msSince(start);

    const snapshotMs = {};
    const snapshotText = {};
    for (const path of pages) {
      await open(page, options.base, path);
      snapshotMs[path] = await times(options.repeat, () => page.ariaSnapshot());
      snapshotText[path] = await page.ariaSnapshot();
    }

    await open(page, options.base, 'products.html');
    const buyNow = page.getByRole('button', { name: 'Buy now' });
    const clickMs = await times(options.repeat, () => buyNow.click());

    await open(page, options.base, 'login.html');
    const username = page.getByLabel('Username');
    const fillMs = await times(options.repeat, () => username.fill('ada'));

    return {
      launch_to_first_snapshot_ms: launchToFirstSnapshot,
      snapshot_ms: snapshotMs,
      snapshot_text: snapshotText,
      click_ms: clickMs,
      fill_ms: fillMs,
    };
  } finally {
    await browser.close();
  }
});

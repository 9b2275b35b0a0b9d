// Shared by the scripts here: how Chromium is launched and how long a page may settle.
import { chromium } from 'playwright-core';
import { DISABLED_FEATURES } from './disabled-features.mjs';

// The same switches our own driver uses, so the two browsers behave alike on a closed network.
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

// $CHROME or the system Chromium: playwright-core never downloads a browser.
export function launch() {
  return chromium.launch({ executablePath: process.env.CHROME || '/usr/bin/chromium', args: LAUNCH_ARGS });
}

// After `load`, let late fetches finish, but never wait long: pages under ?instant=1 are complete
// at load, and a page that keeps polling must not stall the run.
export async function settle(page) {
  await page.waitForLoadState('networkidle', { timeout: 2000 }).catch(() => {});
}

// Runs a script's main, printing its result as JSON, or the error on stderr with exit code 1.
export function run(name, main) {
  main(process.argv.slice(2)).then(
    (result) => process.stdout.write(JSON.stringify(result, null, 2) + '\n'),
    (err) => {
      process.stderr.write(`${name}: ${err && err.message ? err.message : err}\n`);
      process.exit(1);
    },
  );
}

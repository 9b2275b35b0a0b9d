// Shared by the scripts here: how Chromium is launched and how long a page may settle.
import { chromium } from 'playwright-core';

// Playwright 1.65's own `--disable-features` list, and the omnibox's popup, which Chromium
// preloads as a page of its own for every window (a context's page included): about 1 s of CPU
// each, for a popup a headless browser never shows. Chromium keeps only the last
// `--disable-features`, so this one repeats Playwright's list rather than replacing it.
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup',
];

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

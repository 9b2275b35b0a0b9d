// End-to-end tests against `planwright serve` in Debian's Chromium (never a downloaded browser).
import { defineConfig } from '@playwright/test';
import { DISABLED_FEATURES } from '../tools/playwright/disabled-features.mjs';

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROME ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-quic',
        '--no-first-run',
        // Playwright's own list and the omnibox's popup (about 1 s of CPU a test): see the file.
        `--disable-features=${DISABLED_FEATURES.join(',')}`,
      ],
    },
    // No trace: recording one for every test (to keep it on a failure) took a fifth of the run's
    // CPU, and CI shows the error text, not the trace. `npx playwright test --trace on` records
    // them while investigating.
    trace: 'off',
  },
});

// The Chromium features off in every Playwright browser of the project (the reference scripts
// here and the studio's end-to-end tests, ui/playwright.config.ts): Playwright 1.65's own list,
// and the omnibox's popup, which Chromium preloads as a page of its own for every window (a
// context's page included) — about 1 s of CPU each, for a popup a headless browser never shows.
// Chromium keeps only the last `--disable-features`, so this repeats Playwright's list rather than
// replacing it: check it when playwright-core is upgraded. No imports, so that the UI's config
// can read it without this folder's packages.
export const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup',
];

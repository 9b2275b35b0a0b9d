// The Run tab's first hour, in English and Japanese: what a person who is not a programmer
// expects from it (issue "a first hour without surprises"). Every word the test looks for comes
// from the studio's own catalogs, so a reworded message changes here too. With
// PLANWRIGHT_SCREENSHOTS=DIR (after `npm run build` and `cargo build -p planwright`) the same
// tests run in light and dark and save what they show as DIR/run-tab-<what>-<lang>-<theme>.png.
import { createServer, type Server } from 'node:http';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { format, type Lang } from '../src/lib/i18n/messages';
import type { MessageKey } from '../src/lib/i18n/en';
import { EXCEL_PLAN, REPORT_PLAN } from './plans';
import { typePlan } from './studio';
import { test, expect } from './sites';

const MONTH_PLAN = `apiVersion: planwright/v1
id: e2e_month
version: 1.0.0
vars:
  month: "2026-09"
graph:
  - id: save
    block: report.write
    in: {data: {month: "\${vars.month}"}, format: json, path: out/month.json}
`;

const FAILS_PLAN = `apiVersion: planwright/v1
id: e2e_fails
version: 1.0.0
graph:
  - id: call
    block: external.api.http
    in: {url: "http://127.0.0.1:9/the-ledger-service-that-is-not-running-on-this-computer/exports/2026-11"}
    out: {status: status}
`;

/** A plan that waits on `base` (a server the test holds), then asks for a sign-off with a table. */
const signOffPlan = (base: string) => `apiVersion: planwright/v1
id: e2e_signoff
version: 1.0.0
graph:
${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `  - id: note_${n}\n    block: report.write\n    in: {data: {n: ${n}}, format: json, path: out/note_${n}.json}\n`).join('')}  - id: fetch
    block: external.api.http
    in: {url: "${base}/hold"}
    out: {status: status}
  - id: signoff
    block: ui.confirmation
    after: [fetch]
    in:
      message: Sign off the regression run
      context:
        - {case: TC-01, passed: true}
        - {case: TC-02, passed: false}
`;

/** A browser step's evidence and a report written to the work folder, then a question about them. */
const evidencePlan = (page: string) => `apiVersion: planwright/v1
id: e2e_evidence
version: 1.0.0
graph:
  - id: open
    block: browser.navigate
    in: {url: "${page}"}
  - id: shot
    block: browser.screenshot
    after: [open]
    in: {path: evidence/welcome.png}
    out: {path: shot}
  - id: summary
    block: report.write
    after: [shot]
    in: {data: {checked: welcome}, format: json, path: evidence/summary.json}
  - id: signoff
    block: ui.confirmation
    after: [summary]
    in: {message: "Is the evidence right?"}
`;

const BANK_CSV = 'date,vendor,amount\n2026-10-01,Acme,1200\n';

/** Reads a bank export named by a var. */
const VAR_FILE_PLAN = `apiVersion: planwright/v1
id: e2e_var_file
version: 1.0.0
vars:
  statement: bank/payments_oct.csv
graph:
  - id: read
    block: file.read_csv
    in: {path: "\${vars.statement}"}
    out: {rows: rows}
`;

/** Reads a bank export whose path is written in the step. */
const STEP_FILE_PLAN = `apiVersion: planwright/v1
id: e2e_step_file
version: 1.0.0
graph:
  - id: read
    block: file.read_csv
    in: {path: bank/payments_oct.csv}
    out: {rows: rows}
`;

/** A ledger of 1,000 rows sorted by amount: more rows than the results carry, read page by page. */
const LEDGER_PLAN = `apiVersion: planwright/v1
id: e2e_ledger
version: 1.0.0
graph:
  - id: read
    block: file.read_csv
    in: {path: ledger.csv}
    out: {rows: rows}
  - id: largest
    block: transforms.sort
    in: {items: "\${read.rows}", by: [{column: amount, order: desc}]}
    out: {rows: rows}
`;
const LEDGER_CSV = `reference,vendor,amount\n${Array.from({ length: 1000 }, (_, i) => `INV-${String(i).padStart(4, '0')},Vendor ${i % 37},${(i * 3) % 1000}`).join('\n')}\n`;

// An opener that notes what it was asked to open.
const loggingOpener = mkdtempSync(join(tmpdir(), 'planwright-opener-'));
writeFileSync(join(loggingOpener, 'xdg-open'), '#!/bin/sh\nprintf \'%s\\n\' "$1" >> "$(dirname "$0")/opened.log"\n');
chmodSync(join(loggingOpener, 'xdg-open'), 0o755);

// An opener that fails as xdg-open does when no application handles the file (exit status 3).
const failingOpener = mkdtempSync(join(tmpdir(), 'planwright-no-opener-'));
writeFileSync(join(failingOpener, 'xdg-open'), '#!/bin/sh\nexit 3\n');
chmodSync(join(failingOpener, 'xdg-open'), 0o755);

/** A server whose `/hold` answers only once `release` is called. */
async function holdingServer(): Promise<{ server: Server; base: string; release: () => void }> {
  let release = () => undefined as void;
  const held = new Promise<void>((ok) => (release = ok));
  const server = createServer((req, res) => {
    void held.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, release };
}

const OUT = process.env.PLANWRIGHT_SCREENSHOTS ?? '';
const THEMES = OUT ? (['light', 'dark'] as const) : (['light'] as const);

for (const [lang, theme] of (['en', 'ja'] as const satisfies Lang[]).flatMap((l) => THEMES.map((t) => [l, t] as const))) {
  const w = (key: MessageKey, params: Record<string, string | number> = {}) => format(lang, key, params);
  const choosePlan = (page: Page, id: string) => page.getByLabel(w('run.choosePlan')).selectOption({ label: `${id} (${id}.yaml)` });
  const runView = (page: Page) => page.getByRole('region', { name: w('tab.run'), exact: true });
  const suffix = theme === 'light' ? `(${lang})` : `(${lang}, ${theme})`;
  /** Saves what the page shows, when screenshots are asked for. */
  const snap = async (page: Page, what: string) => {
    if (!OUT) return;
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: join(OUT, `run-tab-${what}-${lang}-${theme}.png`), animations: 'disabled' });
  };
  const look = { colorScheme: theme, timezoneId: 'Asia/Tokyo', reducedMotion: 'reduce' } as const;

  test.describe(`the Run tab ${suffix}`, () => {
    test.use({
      ...look,
      locale: lang === 'ja' ? 'ja-JP' : 'en-US',
      plans: { 'e2e_report.yaml': REPORT_PLAN, 'e2e_month.yaml': MONTH_PLAN, 'e2e_fails.yaml': FAILS_PLAN, 'e2e_excel.yaml': EXCEL_PLAN },
    });

    test('a plan just registered in Design is the one chosen in Run', async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: w('tab.design') }).click();
      await typePlan(page, REPORT_PLAN.replace('id: e2e_report', 'id: e2e_fresh'));
      await page.getByRole('button', { name: w('design.register') }).click();
      await expect(page.getByText(/e2e_fresh_\d{12}\.yaml/).first()).toBeVisible();
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await expect(page.getByLabel(w('run.choosePlan'))).toHaveValue(/^e2e_fresh_\d{12}\.yaml$/);
      await expect(page.getByText(w('readiness.ready'))).toBeVisible();
      await expect(runView(page)).toContainText(w('run.notRunYet', { plan: 'e2e_fresh' }));
      await snap(page, 'registered');
    });

    test("choosing another plan puts away the last plan's run, and choosing it again brings it back", async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_report');
      await page.getByRole('button', { name: w('run.start'), exact: true }).click();
      await expect(runView(page).getByRole('heading', { name: 'e2e_report' })).toBeVisible();
      await expect(runView(page).getByRole('status')).toHaveText(w('runStatus.succeeded'));

      await choosePlan(page, 'e2e_month');
      await expect(runView(page)).toContainText(w('run.notRunYet', { plan: 'e2e_month' }));
      await expect(runView(page).getByRole('heading', { name: 'e2e_report' })).toHaveCount(0);

      await choosePlan(page, 'e2e_report');
      await expect(runView(page).getByRole('heading', { name: 'e2e_report' })).toBeVisible();
      await expect(runView(page).getByRole('status')).toHaveText(w('runStatus.succeeded'));
    });

    test("a plan's variables keep the values of its last run, and the plan's own are one click away", async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_month');
      const month = page.getByLabel('month', { exact: true });
      await expect(month).toHaveValue('2026-09');
      await month.fill('2026-10');
      await page.getByRole('button', { name: w('run.start'), exact: true }).click();
      await expect(runView(page).getByRole('status')).toHaveText(w('runStatus.succeeded'));

      // Another day: the studio opened afresh.
      await page.reload();
      let checks = 0;
      page.on('response', (r) => {
        if (r.url().includes('/api/runs/check')) checks += 1;
      });
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_month');
      await expect(month).toHaveValue('2026-10');
      await expect(page.getByText(w('run.lastValues', { names: 'month' }))).toBeVisible();
      await expect(runView(page).getByRole('status')).toHaveText(w('runStatus.succeeded'));
      await snap(page, 'last-values');
      // As a person would: the plan's own values asked for after the check of the last run's has
      // answered (it says the run would use 2026-10).
      await expect.poll(() => checks).toBeGreaterThanOrEqual(2);
      await page.getByRole('button', { name: w('run.planValues') }).click();
      await expect(month).toHaveValue('2026-09');
    });

    test('a failed run offers to fix the plan first, then to run it again, and shows the whole error', async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_fails');
      await page.getByRole('button', { name: w('run.start'), exact: true }).click();
      await expect(runView(page).getByRole('status')).toHaveText(w('runStatus.failed'));
      // The one main action is to fix the plan; running it again comes next; resuming, which
      // would fail the same way, is no longer the main button.
      const main = runView(page).locator('.head-actions button.primary');
      await expect(main).toHaveCount(1);
      await expect(main).toHaveText(w('run.fixInDesign'));
      await expect(runView(page).locator('.head-actions button.primary + button')).toHaveText(w('run.rerun'));
      await expect(runView(page).getByRole('button', { name: w('run.resume') })).not.toHaveClass(/primary/);

      const why = page.getByRole('table', { name: w('run.nodes') }).locator('tr[data-node="call"] .why');
      await expect(why).toContainText('the-ledger-service-that-is-not-running-on-this-computer/exports/2026-11');
      const cut = await why.evaluate((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
      expect(cut, 'the error is shown whole').toBe(false);
      await snap(page, 'failed');

      await main.click();
      await expect(page.getByRole('tab', { name: w('tab.design') })).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator('.cm-content')).toContainText('id: e2e_fails');
    });

    test('a question that arrives while the person reads further down is brought into view, and a banner stays', async ({ page, studio }) => {
      await page.setViewportSize({ width: 1280, height: 480 });
      const { server, base, release } = await holdingServer();
      try {
        writeFileSync(join(studio.workspace, 'designs', 'e2e_signoff.yaml'), signOffPlan(base));
        await page.getByRole('tab', { name: w('tab.run') }).click();
        await choosePlan(page, 'e2e_signoff');
        await page.getByRole('button', { name: w('run.start'), exact: true }).click();
        await expect(page.getByRole('table', { name: w('run.nodes') }).locator('tr[data-node="fetch"]')).toHaveAttribute('data-status', 'running');
        await runView(page).evaluate((el) => el.scrollTo(0, el.scrollHeight));
        release();

        const form = page.getByRole('form', { name: w('input.title', { node: 'signoff' }) });
        await expect(form).toBeInViewport();
        await expect(page.getByText(w('run.waitingBanner'))).toBeInViewport();
        // Below the run's header and its banner, its title not hidden under them.
        const below = () =>
          page.evaluate(() => {
            const head = document.querySelector('.run-head')!.getBoundingClientRect();
            const question = document.querySelector('.question')!.getBoundingClientRect();
            return Math.round(question.top - head.bottom);
          });
        await expect.poll(below).toBeGreaterThanOrEqual(0);
        // What the person signs off is a table in words, not JSON with true and false.
        const table = form.getByRole('table', { name: w('input.context') });
        await expect(table.getByRole('row').nth(1)).toHaveText(['TC-01', w('common.yes')].join(''));
        await expect(table.getByRole('row').nth(2)).toHaveText(['TC-02', w('common.no')].join(''));
        await snap(page, 'question-in-view');

        await runView(page).evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await expect(form).not.toBeInViewport();
        await expect(page.getByText(w('run.waitingBanner'))).toBeInViewport();
        await snap(page, 'waiting-banner');
        await page.getByRole('button', { name: w('run.goToQuestion') }).click();
        await expect(form).toBeInViewport();
        await expect.poll(below).toBeGreaterThanOrEqual(0);
        await form.getByRole('button', { name: w('input.approve') }).click();
        await expect(runView(page).getByRole('status')).toHaveText(w('runStatus.succeeded'));
        await expect(page.getByText(w('run.waitingBanner'))).toHaveCount(0);
      } finally {
        server.close();
      }
    });

    test('the evidence a run wrote is listed and previewed, already while it waits for a sign-off', async ({ page, studio, sites }) => {
      writeFileSync(join(studio.workspace, 'designs', 'e2e_evidence.yaml'), evidencePlan(`${sites.origin}/welcome.html`));
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_evidence');
      await page.getByRole('button', { name: w('run.start'), exact: true }).click();
      await expect(page.getByRole('form', { name: w('input.title', { node: 'signoff' }) })).toBeVisible();
      const sofar = page.getByRole('region', { name: w('results.sofar') });
      await expect(sofar.getByRole('button', { name: 'welcome.png' })).toHaveAttribute('aria-expanded', 'true');
      await expect(sofar.getByRole('img', { name: 'welcome.png' })).toBeVisible();
      // And the report it wrote, beside it.
      await expect(sofar.getByRole('button', { name: 'summary.json' })).toBeVisible();
      await snap(page, 'results-so-far');
    });
  });

  test.describe(`a large table ${suffix}`, () => {
    test.use({
      ...look,
      locale: lang === 'ja' ? 'ja-JP' : 'en-US',
      plans: { 'e2e_ledger.yaml': LEDGER_PLAN },
      // Tables of more than 100 rows are kept as files of the run, as a ledger of 10,000 is.
      serveEnv: { PLANWRIGHT_TABLE_FILE_ROWS: '100' },
    });

    test('is paged through from the run record, beyond the first rows the results carry', async ({ page, studio }) => {
      writeFileSync(join(studio.workspace, 'ledger.csv'), LEDGER_CSV);
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_ledger');
      await page.getByRole('button', { name: w('run.start'), exact: true }).click();
      const results = page.getByRole('region', { name: w('results.title') });
      const n = (x: number) => new Intl.NumberFormat(lang === 'ja' ? 'ja-JP' : 'en-US').format(x);
      const browse = results.getByRole('button', { name: w('results.browseRows', { total: n(1000) }) });
      await browse.scrollIntoViewIfNeeded();
      await snap(page, 'table-preview');
      await browse.click();
      const pager = results.getByRole('navigation', { name: w('results.pages') });
      await expect(pager).toContainText(w('results.rowRange', { from: n(1), to: n(100), total: n(1000) }));
      const table = results.getByRole('table', { name: 'largest · rows' });
      await expect(table.getByRole('row')).toHaveCount(101);
      await expect(table.getByRole('row').nth(1)).toHaveText(['INV-0333', 'Vendor 0', '999'].join(''));
      await pager.getByRole('button', { name: w('results.nextPage') }).click();
      await expect(pager).toContainText(w('results.rowRange', { from: n(101), to: n(200), total: n(1000) }));
      await expect(table.getByRole('row').nth(1)).toContainText('899');
      await pager.getByLabel(w('results.goToRow')).fill('950');
      await pager.getByRole('button', { name: w('results.go') }).click();
      await expect(pager).toContainText(w('results.rowRange', { from: n(901), to: n(1000), total: n(1000) }));
      await expect(table.getByRole('row').last()).toContainText('INV-0000');
      await expect(pager.getByRole('button', { name: w('results.nextPage') })).toBeDisabled();
      await snap(page, 'table-pages');
      await results.getByRole('button', { name: w('results.backToPreview') }).click();
      await expect(results.getByRole('button', { name: w('results.browseRows', { total: n(1000) }) })).toBeVisible();
    });
  });

  test.describe(`a file no application opens ${suffix}`, () => {
    test.use({
      ...look,
      locale: lang === 'ja' ? 'ja-JP' : 'en-US',
      plans: { 'e2e_excel.yaml': EXCEL_PLAN },
      serveEnv: { PATH: `${failingOpener}:${process.env.PATH ?? ''}` },
    });

    test('is said in words, with Download offered beside it', async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await page.getByLabel(w('run.choosePlan')).selectOption({ label: 'e2e_excel (e2e_excel.yaml)' });
      await page.getByRole('button', { name: w('run.start'), exact: true }).click();
      const results = page.getByRole('region', { name: w('results.title') });
      await results.getByRole('button', { name: w('results.open'), exact: true }).click();
      const alert = results.getByRole('alert');
      await expect(alert).toHaveText(new RegExp(w('results.noApplication', { name: 'unpaid.xlsx' }).replace(/[.()]/g, '\\$&')));
      await expect(page.getByText(/ExitStatus|unix_wait_status/)).toHaveCount(0);
      await snap(page, 'open-failed');
      const download = page.waitForEvent('download');
      await alert.getByRole('button', { name: w('results.download') }).click();
      expect((await download).suggestedFilename()).toBe('unpaid.xlsx');
    });
  });

  test.describe(`where files are ${suffix}`, () => {
    test.use({
      ...look,
      locale: lang === 'ja' ? 'ja-JP' : 'en-US',
      plans: { 'e2e_var_file.yaml': VAR_FILE_PLAN, 'e2e_step_file.yaml': STEP_FILE_PLAN },
      serveEnv: { PATH: `${loggingOpener}:${process.env.PATH ?? ''}` },
    });

    test('the work folder is shown, copied and opened, and a missing file named by a var is found elsewhere in it', async ({ page, studio }) => {
      mkdirSync(join(studio.workspace, 'bank', '2026-10'), { recursive: true });
      writeFileSync(join(studio.workspace, 'bank', '2026-10', 'payments_oct.csv'), BANK_CSV);
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_var_file');
      const check = page.getByRole('group', { name: w('readiness.title') });
      await expect(check).toContainText(`${w('readiness.workFolder')} ${studio.workspace}`);
      const log = join(loggingOpener, 'opened.log');
      rmSync(log, { force: true });
      await check.getByRole('button', { name: w('results.showInFolder') }).click();
      await expect.poll(() => (existsSync(log) ? readFileSync(log, 'utf8').trim() : '')).toBe(studio.workspace);

      await expect(check).toContainText(w('readiness.fileMissingVar', { var: 'statement' }));
      await expect(check).toContainText(w('readiness.meant', { path: 'bank/2026-10/payments_oct.csv' }));
      // The field offers the work folder's files.
      await expect(page.locator(`datalist option[value="bank/2026-10/payments_oct.csv"]`)).toHaveCount(1);
      await snap(page, 'file-meant');
      await check.getByRole('button', { name: w('readiness.useFile', { path: 'bank/2026-10/payments_oct.csv' }) }).click();
      await expect(page.getByLabel('statement', { exact: true })).toHaveValue('bank/2026-10/payments_oct.csv');
      await expect(check).toContainText(w('readiness.ready'));
    });

    test('a missing file written in the step says so, and opens the plan in Design at that step', async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_step_file');
      const check = page.getByRole('group', { name: w('readiness.title') });
      await expect(check).toContainText(w('readiness.fileMissingStep', { node: 'read' }));
      await expect(check).not.toContainText(w('readiness.fileMissingVar', { var: 'statement' }));
      await snap(page, 'file-in-step');
      await check.getByRole('button', { name: w('readiness.changeInDesign', { node: 'read' }) }).click();
      await expect(page.getByRole('tab', { name: w('tab.design') })).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator('.cm-content')).toContainText('id: e2e_step_file');
      await expect(page.getByLabel(w('inspector.choose'))).toHaveValue('read');
    });

    test('"Run again" of a run whose file has gone names the file', async ({ page, studio }) => {
      mkdirSync(join(studio.workspace, 'bank'), { recursive: true });
      writeFileSync(join(studio.workspace, 'bank', 'payments_oct.csv'), BANK_CSV);
      await page.getByRole('tab', { name: w('tab.run') }).click();
      await choosePlan(page, 'e2e_step_file');
      await page.getByRole('button', { name: w('run.start'), exact: true }).click();
      await expect(runView(page).getByRole('status')).toHaveText(w('runStatus.succeeded'));
      rmSync(join(studio.workspace, 'bank', 'payments_oct.csv'));
      await runView(page).getByRole('button', { name: w('run.rerun') }).click();
      const refused = page.getByRole('alert').filter({ hasText: w('run.rerun') });
      await expect(refused).toContainText(w('readiness.problem.file_missing', { subject: 'bank/payments_oct.csv' }));
      // The run check beside it says so too, no longer that the file is there.
      const check = page.getByRole('group', { name: w('readiness.title') });
      await expect(check).toContainText(w('readiness.fileMissingStep', { node: 'read' }));
      await expect(page.getByRole('button', { name: w('run.start'), exact: true })).toBeDisabled();
    });
  });
}

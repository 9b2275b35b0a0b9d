// Screenshots of the Run tab's run check (a file missing, secrets to enter), a finished run's
// results (a workbook previewed as a table), a failed run (its reason coded, with the record's
// own words), and the Design tab's node inspector with the plan library (a plan with earlier
// versions) and a list of conditions edited as a table, in English and Japanese, light and
// dark, at 1280×800: after `npm run build` and `cargo build -p planwright`,
// `PLANWRIGHT_SCREENSHOTS=DIR npx playwright test e2e/studio-screens.spec.ts`. Skipped in the
// ordinary test run. docs/images/run-check-*, run-results-*, run-failed-*, run-log-*,
// run-block-words-*, design-columns-* (column findings from the workspace's data/invoices.csv),
// design-column-choices-* (the inspector's column field offering the columns there are),
// run-waiting-from-record-*, run-waiting-resumed-* (a waiting run from the command line, resumed
// before its question is answered)
// design-start-* (the Design tab's start page on a first launch)
// and design-inspector-* (with -table-) are these.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './studio';

const OUT = process.env.PLANWRIGHT_SCREENSHOTS ?? '';

const CHECK_PLAN = `apiVersion: planwright/v1
id: monthly_invoices
version: 1.0.0
vars:
  month: null
  invoice_file: data/invoices_2024-04.xlsx
  start_url: http://127.0.0.1:9/
secrets: [PORTAL_USER, PORTAL_PASSWORD]
graph:
  - id: invoices
    block: excel.read_data
    in: {path: "\${vars.invoice_file}"}
    out: {rows: rows}
  - id: portal
    block: browser.run_objectives
    after: [invoices]
    in:
      start_url: \${vars.start_url}
      steps: |
        1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}
        2. Open the statement of \${vars.month}
`;

// Two column mistakes against the workspace's data/invoices.csv: `取引` (the file says 取引先), and
// 金額 after the group that left it out.
const COLUMNS_PLAN = readFileSync(join(import.meta.dirname, 'fixtures', 'large_suppliers.yaml'), 'utf8');

const RESULTS_PLAN = `apiVersion: planwright/v1
id: month_end_close
version: 1.0.0
graph:
  - id: book
    block: excel.write
    in:
      path: out/unpaid_2024-04.xlsx
      sheets:
        Unpaid:
          - {Invoice: INV-2024-0401, Customer: Yamada Trading Co., Amount: 132000, Due: 2024-05-31}
          - {Invoice: INV-2024-0403, Customer: Midori Planning Ltd., Amount: 264000, Due: 2024-05-20}
          - {Invoice: INV-2024-0417, Customer: Towa Logistics, Amount: 88000, Due: 2024-05-31}
    out: {summary: summary}
  - id: note
    block: report.write
    in:
      data: {unpaid_invoices: 3, total_unpaid: 484000}
      format: markdown
      path: out/month_end_2024-04.md
      title: Month-end close, April 2024
    out: {path: report}
`;

const FAILS_PLAN = `apiVersion: planwright/v1
id: supplier_totals
version: 1.0.0
graph:
  - id: statements
    block: external.api.http
    in: {url: "http://127.0.0.1:9/suppliers/statements?month=2024-04"}
    out: {response_json: statements}
`;

// Transforms that log what they did, then a step whose own words are coded by their kind.
const LOG_PLAN = `apiVersion: planwright/v1
id: regional_sales
version: 1.0.0
graph:
  - id: large
    block: transforms.filter
    in:
      items:
        - {Region: East, Amount: 120000}
        - {Region: West, Amount: 80000}
        - {Region: East, Amount: n/a}
        - {Region: North, Amount: 45000}
        - {Region: West, Amount: 230000}
      conditions: [{field: Amount, operator: gte, value: 50000}]
    out: {filtered: rows}
  - id: by_region
    block: transforms.group_by_agg
    in: {items: "\${large.rows}", by: [Region], aggregations: [{field: Amount, op: sum, as: Total}]}
    out: {rows: totals}
  - id: east_total
    block: transforms.pick
    in: {source: "\${by_region.totals}", path: "0.Total.yen"}
    out: {value: east}
`;

const WORDS = {
  en: { validate: 'Validate', run: 'Run', design: 'Design', designs: 'Designs', choose: 'Choose a registered plan', check: 'Before the run', results: 'Results', succeeded: /succeeded/i, earlier: /earlier version/ },
  ja: { validate: '検証', run: '実行', design: '設計', designs: '登録済みプラン', choose: '登録済みのプランを選択', check: '実行前の確認', results: '結果', succeeded: /成功/, earlier: /以前の版/ },
};

const INSPECT_V1 = `apiVersion: planwright/v1
id: unpaid_invoices
version: 1.0.0
description: Lists the invoices not paid by their due date.
graph:
  - id: invoices
    block: excel.read_data
    in: {path: data/invoices_2024-04.xlsx}
    out: {rows: rows}
  - id: unpaid
    block: transforms.filter
    in:
      items: "\${invoices.rows}"
      conditions: [{field: status, operator: ne, value: paid}]
    out: {filtered: unpaid}
  - id: save
    block: excel.write
    in:
      path: out/unpaid_2024-04.xlsx
      sheets: {Unpaid: "\${unpaid.unpaid}"}
`;
const INSPECT_V2 = INSPECT_V1.replace('version: 1.0.0', 'version: 1.1.0');

/** Runs the registered plan `plan` from the Run tab until its node `node` fails; that node's row. */
async function runToFailure(page: Page, w: (typeof WORDS)['en' | 'ja'], plan: string, node: string) {
  await page.getByRole('tab', { name: w.run }).click();
  await page.getByLabel(w.choose).selectOption({ label: `${plan} (${plan}.yaml)` });
  await page.locator('.start button.primary').click();
  const row = page.locator(`tr[data-node="${node}"]`);
  await expect(row).toHaveAttribute('data-status', 'failed');
  return row;
}

async function shot(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(OUT, `${name}.png`), animations: 'disabled' });
}

for (const lang of ['en', 'ja'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`${lang} ${theme}`, () => {
      test.skip(OUT === '', 'set PLANWRIGHT_SCREENSHOTS to a folder to take the screenshots');
      test.use({
        locale: lang === 'ja' ? 'ja-JP' : 'en-US',
        timezoneId: 'Asia/Tokyo',
        colorScheme: theme,
        reducedMotion: 'reduce',
        viewport: { width: 1280, height: 800 },
        plans: {
          'monthly_invoices.yaml': CHECK_PLAN,
          'month_end_close.yaml': RESULTS_PLAN,
          'supplier_totals.yaml': FAILS_PLAN,
          'regional_sales.yaml': LOG_PLAN,
          'unpaid_invoices_202611010900.yaml': INSPECT_V1,
          'unpaid_invoices_202611270930.yaml': INSPECT_V2,
        },
        serveEnv: { PLANWRIGHT_SECRET_PORTAL_USER: 'tk-suzuki' },
      });
      const w = WORDS[lang];
      const v = `${lang}-${theme}`;

      test('the run check and a run\'s results', async ({ page, studio }) => {
        void studio;
        await page.getByRole('tab', { name: w.run }).click();
        await page.getByLabel(w.choose).selectOption({ label: 'monthly_invoices (monthly_invoices.yaml)' });
        const check = page.getByRole('group', { name: w.check });
        await expect(check.getByText('PORTAL_PASSWORD', { exact: true })).toBeVisible();
        await page.getByLabel('month', { exact: true }).fill('2024-04');
        await expect(check.getByLabel('month', { exact: true })).toHaveValue('2024-04');
        await page.waitForTimeout(600);
        await check.getByText('PORTAL_PASSWORD', { exact: true }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await shot(page, `run-check-${v}`);

        await page.getByLabel(w.choose).selectOption({ label: 'month_end_close (month_end_close.yaml)' });
        await page.locator('.start button.primary').click();
        await expect(page.locator('.run-head [role=status]')).toHaveText(w.succeeded);
        const results = page.getByRole('region', { name: w.results });
        await expect(results.getByRole('table').first()).toBeVisible();
        await shot(page, `run-results-${v}`);
      });

      test('a run that failed, its reason in the person\'s language', async ({ page, studio }) => {
        void studio;
        const row = await runToFailure(page, w, 'supplier_totals', 'statements');
        await row.locator('button').first().click();
        await page.waitForTimeout(600);
        await shot(page, `run-failed-${v}`);
      });

      test('a run\'s log and a step\'s own words, coded for the person\'s language', async ({ page, studio }) => {
        void studio;
        const row = await runToFailure(page, w, 'regional_sales', 'east_total');
        await expect(page.locator('.logs li')).toHaveCount(3);
        await page.waitForTimeout(600);
        await shot(page, `run-log-${v}`);
        await row.locator('button').first().click();
        await page.waitForTimeout(600);
        await shot(page, `run-block-words-${v}`);
      });

      test('column findings at their nodes, from the workspace file and the steps before', async ({ page, studio }) => {
        void studio;
        await page.getByRole('tab', { name: w.design }).click();
        await page.locator('.cm-content').click();
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Delete');
        await page.keyboard.insertText(COLUMNS_PLAN);
        await page.getByRole('button', { name: w.validate, exact: true }).click();
        await expect(page.locator('.cm-lintRange-error')).toHaveCount(2);
        await page.waitForTimeout(600);
        await shot(page, `design-columns-${v}`);
        // The inspector offers the columns there are at that step.
        await page.locator('.cm-content').getByText('by: [取引]').click();
        await page.getByRole('tab', { name: /^(Step|ステップ)$/ }).click();
        const by = page.getByRole('tabpanel').getByRole('group', { name: 'by' }).getByRole('combobox');
        await expect(by).toBeVisible();
        await by.scrollIntoViewIfNeeded();
        await page.waitForTimeout(400);
        await shot(page, `design-column-choices-${v}`);
      });

      test('the start page of the Design tab', async ({ page, studio }) => {
        void studio;
        await page.getByRole('tab', { name: w.design }).click();
        await expect(page.locator('.start h2')).toBeVisible();
        await page.waitForTimeout(400);
        await shot(page, `design-start-${v}`);
      });

      test('the node inspector and the plan library', async ({ page, studio }) => {
        void studio;
        await page.getByRole('tab', { name: w.design }).click();
        await page.getByRole('radio', { name: w.designs }).click();
        await page.getByRole('button', { name: /unpaid_invoices_202611270930\.yaml/ }).click();
        await page.getByText(w.earlier).click();
        await page.getByRole('img', { name: lang === 'en' ? 'Graph' : 'グラフ' }).getByRole('button', { name: /^unpaid/ }).click();
        await expect(page.getByRole('tabpanel').getByRole('heading').first()).toBeVisible();
        await page.waitForTimeout(600);
        await shot(page, `design-inspector-${v}`);
        // Its list of conditions, as a table.
        await page.getByRole('tabpanel').getByRole('group', { name: 'conditions' }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await shot(page, `design-inspector-table-${v}`);
      });
    });
  }
}

/** A plan that asks one question, run from the command line until it waits. */
const ASKS_PLAN = readFileSync(join(import.meta.dirname, 'fixtures', 'asks_month.yaml'), 'utf8').replace('id: e2e_asks', 'id: month_report');

for (const lang of ['en', 'ja'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`${lang} ${theme}, a waiting run from the command line`, () => {
      test.skip(OUT === '', 'set PLANWRIGHT_SCREENSHOTS to a folder to take the screenshots');
      test.use({
        locale: lang === 'ja' ? 'ja-JP' : 'en-US',
        colorScheme: theme,
        viewport: { width: 1280, height: 800 },
        plans: { 'month_report.yaml': ASKS_PLAN },
      });

      test('is resumed before its question is answered', async ({ page, studio }) => {
        const w = WORDS[lang];
        const v = `${lang}-${theme}`;
        const binary = process.env.PLANWRIGHT_BIN ?? join(import.meta.dirname, '..', '..', 'target', 'debug', 'planwright');
        const cli = spawnSync(binary, ['run', join(studio.workspace, 'designs', 'month_report.yaml'), '--workdir', studio.workspace], {
          env: { ...process.env, PLANWRIGHT_HOME: join(dirname(studio.workspace), 'home'), PLANWRIGHT_KEYRING: 'off' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        expect(cli.status, String(cli.stderr)).toBe(3);
        await page.getByRole('tab', { name: w.run }).click();
        await page.getByRole('button', { name: lang === 'ja' ? /^実行 .+ を開く$/ : /^Open run / }).first().click();
        await expect(page.getByRole('button', { name: lang === 'ja' ? '再開' : 'Resume' })).toBeVisible();
        await expect(page.locator('form')).toHaveCount(0);
        await page.waitForTimeout(300);
        await shot(page, `run-waiting-from-record-${v}`);
        await page.getByRole('button', { name: lang === 'ja' ? '再開' : 'Resume' }).click();
        await expect(page.getByRole('form')).toBeVisible();
        await page.waitForTimeout(300);
        await shot(page, `run-waiting-resumed-${v}`);
      });
    });
  }
}

// Before-and-after pictures of the first hour (issue "a first hour without surprises"): the same
// screens, taken the same way on any build of the studio, so that an older checkout shows how
// each item looked before it was mended and this one how it looks now. It asserts nothing about
// the studio (the tests that do are run-tab.spec.ts, objectives.spec.ts, design.spec.ts and the
// Rust tests); each step is tried and the picture taken whatever the screen then shows, which
// is the point on an older build. Skipped unless PLANWRIGHT_GALLERY names a folder:
//
//   cd ui && npm run build && PLANWRIGHT_GALLERY=DIR npx playwright test e2e/first-hour-gallery.spec.ts
//
// On an older checkout: copy this file into its ui/e2e, build its `planwright` and UI, and run
// the same command there (PLANWRIGHT_BIN naming its binary). That is why it holds its own plans
// and helpers rather than importing plans.ts and studio.ts's: an older checkout has neither. Pictures: DIR/<screen>-<lang>-<theme>.png, and the QA example's TC-03
// evidence as DIR/qa-tc03-evidence.png.
import { createServer, type Server } from 'node:http';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { format, type Lang } from '../src/lib/i18n/messages';
import type { MessageKey } from '../src/lib/i18n/en';
import { test } from './sites';

const OUT = process.env.PLANWRIGHT_GALLERY ?? '';
const repo = resolve(import.meta.dirname, '..', '..');

const REPORT_PLAN = `apiVersion: planwright/v1
id: e2e_report
version: 1.0.0
graph:
  - id: save
    block: report.write
    in: {data: {total: 3}, format: json, path: out/total.json}
`;
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
const EXCEL_PLAN = `apiVersion: planwright/v1
id: e2e_excel
version: 1.0.0
graph:
  - id: save
    block: excel.write
    in: {sheets: {Unpaid: [{vendor: Acme, amount: 1200}]}, path: out/unpaid.xlsx}
`;
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
  - id: signoff
    block: ui.confirmation
    after: [shot]
    in: {message: "Is the evidence right?"}
`;
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
const STEP_FILE_PLAN = `apiVersion: planwright/v1
id: e2e_step_file
version: 1.0.0
graph:
  - id: read
    block: file.read_csv
    in: {path: bank/payments_oct.csv}
    out: {rows: rows}
`;
const objectivesPlan = (id: string, steps: string) => `apiVersion: planwright/v1
id: ${id}
version: 1.0.0
vars:
  start_url: http://127.0.0.1:9/
secrets: [PORTAL_USER, PORTAL_PASSWORD]
graph:
  - id: download_statement
    block: browser.run_objectives
    in:
      start_url: \${vars.start_url}
      steps: |
        ${steps}
`;
const STEPS = {
  en: `1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}
        2. Open the Statements page
        3. Download the October 2026 statement`,
  ja: `1. ユーザーID {{PORTAL_USER}} とパスワード {{PORTAL_PASSWORD}} でログインする
        2. メニューの「取引明細」を開く
        3. 対象月で「2024年4月」を選んで「表示」を押す
        4. 明細の表が表示されたことを確認する
        5. 「CSVダウンロード」を押して明細をダウンロードする`,
};
const PORTAL = { en: '/objectives/portal/login.html?instant=1', ja: '/objectives/supplier-ja/login.html?instant=1' };
const BANK_CSV = 'date,vendor,amount\n2026-10-01,Acme,1200\n';

/** An opener that fails as xdg-open does when no application handles the file. */
const failingOpener = mkdtempSync(join(tmpdir(), 'planwright-no-opener-'));
writeFileSync(join(failingOpener, 'xdg-open'), '#!/bin/sh\nexit 3\n');
chmodSync(join(failingOpener, 'xdg-open'), 0o755);

async function holdingServer(): Promise<{ server: Server; base: string; release: () => void }> {
  let release = () => undefined as void;
  const held = new Promise<void>((ok) => (release = ok));
  const server = createServer((_req, res) => {
    void held.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, release };
}

/** The editor's text replaced, as `typePlan` in studio.ts (which older builds do not have). */
async function typePlan(page: Page, text: string) {
  await page.locator('.cm-content').click({ timeout: 3000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** A step of the way to a screen: tried, and passed over when this build has no such thing. */
async function tried(what: Promise<unknown>) {
  await what.catch(() => undefined);
}
const settle = (page: Page, ms = 1500) => page.waitForTimeout(ms);

for (const lang of ['en', 'ja'] as const satisfies Lang[]) {
  for (const theme of ['light', 'dark'] as const) {
    const w = (key: string, params: Record<string, string | number> = {}) => {
      try {
        return format(lang, key as MessageKey, params);
      } catch {
        return key;
      }
    };
    const shot = async (page: Page, what: string) => {
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: join(OUT, `${what}-${lang}-${theme}.png`), animations: 'disabled' });
    };
    const runTab = (page: Page) => tried(page.getByRole('tab', { name: w('tab.run') }).click({ timeout: 3000 }));
    const choose = (page: Page, id: string) =>
      tried(page.getByLabel(w('run.choosePlan')).selectOption({ label: `${id} (${id}.yaml)` }, { timeout: 5000 }));
    const start = (page: Page) => tried(page.getByRole('button', { name: w('run.start'), exact: true }).click({ timeout: 5000 }));
    const finished = (page: Page, ms = 20_000) =>
      tried(page.locator('.run-head [role=status]').filter({ hasNotText: w('runStatus.running') }).waitFor({ timeout: ms }));

    test.describe(`the first hour (${lang}, ${theme})`, () => {
      test.skip(OUT === '', 'set PLANWRIGHT_GALLERY to a folder to take the pictures');
      test.use({
        locale: lang === 'ja' ? 'ja-JP' : 'en-US',
        timezoneId: 'Asia/Tokyo',
        colorScheme: theme,
        reducedMotion: 'reduce',
        viewport: { width: 1280, height: 800 },
        plans: {
          'e2e_report.yaml': REPORT_PLAN,
          'e2e_month.yaml': MONTH_PLAN,
          'e2e_fails.yaml': FAILS_PLAN,
          'e2e_excel.yaml': EXCEL_PLAN,
          'e2e_var_file.yaml': VAR_FILE_PLAN,
          'e2e_step_file.yaml': STEP_FILE_PLAN,
          'statement.yaml': objectivesPlan('statement', STEPS[lang]),
          'qa_expense_app_regression.yaml': readFileSync(join(repo, 'designs', 'examples', 'qa_expense_app_regression.yaml'), 'utf8'),
        },
        serveEnv: {
          PATH: `${failingOpener}:${process.env.PATH ?? ''}`,
          PLANWRIGHT_SECRET_PORTAL_USER: lang === 'ja' ? 'tk-suzuki' : 'a.kowalski',
          PLANWRIGHT_SECRET_PORTAL_PASSWORD: 'correct horse battery',
          PLANWRIGHT_SECRET_QA_USER: 'qa-tester',
          PLANWRIGHT_SECRET_QA_PASSWORD: 'Exp-canary-4471',
        },
      });
      test.beforeAll(() => mkdirSync(OUT, { recursive: true }));

      test('first launch', async ({ page, studio }) => {
        void studio;
        await tried(page.getByRole('tab', { name: w('tab.design') }).click({ timeout: 3000 }));
        await settle(page);
        await shot(page, 'first-launch');
      });

      test('a plan just registered, then Run', async ({ page, studio }) => {
        void studio;
        await tried(page.getByRole('tab', { name: w('tab.design') }).click({ timeout: 3000 }));
        // The newer start page opens the editor through "write YAML"; an older build has it open.
        await tried(page.getByRole('button', { name: w('start.yaml') }).click({ timeout: 2000 }));
        await tried(typePlan(page, REPORT_PLAN.replace('id: e2e_report', 'id: e2e_fresh')));
        await tried(page.getByRole('button', { name: w('design.register'), exact: true }).click({ timeout: 5000 }));
        await tried(page.getByRole('button', { name: w('design.registerAnyway') }).click({ timeout: 1500 }));
        await settle(page);
        await runTab(page);
        await settle(page);
        await shot(page, 'registered');
      });

      test("another plan chosen after a run", async ({ page, studio }) => {
        void studio;
        await runTab(page);
        await choose(page, 'e2e_report');
        await start(page);
        await finished(page);
        await choose(page, 'e2e_month');
        await settle(page);
        await shot(page, 'other-plan');
      });

      test("a plan's variables on the next day", async ({ page, studio }) => {
        void studio;
        await runTab(page);
        await choose(page, 'e2e_month');
        await tried(page.getByLabel('month', { exact: true }).fill('2026-10', { timeout: 3000 }));
        await start(page);
        await finished(page);
        await page.reload();
        await runTab(page);
        await choose(page, 'e2e_month');
        await settle(page);
        await shot(page, 'last-values');
      });

      test('a failed run', async ({ page, studio }) => {
        void studio;
        await runTab(page);
        await choose(page, 'e2e_fails');
        await start(page);
        await finished(page);
        await settle(page);
        await shot(page, 'failed');
      });

      test('a question while reading further down', async ({ page, studio }) => {
        await page.setViewportSize({ width: 1280, height: 480 });
        const { server, base, release } = await holdingServer();
        try {
          writeFileSync(join(studio.workspace, 'designs', 'e2e_signoff.yaml'), signOffPlan(base));
          await runTab(page);
          await choose(page, 'e2e_signoff');
          await start(page);
          await settle(page, 2500);
          await tried(page.locator('.runs > section.main').evaluate((el) => el.scrollTo(0, el.scrollHeight)));
          release();
          await settle(page, 3000);
          await shot(page, 'question');
        } finally {
          server.close();
        }
      });

      test('evidence while waiting for a sign-off', async ({ page, studio, sites }) => {
        writeFileSync(join(studio.workspace, 'designs', 'e2e_evidence.yaml'), evidencePlan(`${sites.origin}/welcome.html`));
        await runTab(page);
        await choose(page, 'e2e_evidence');
        await start(page);
        await tried(page.getByRole('form', { name: w('input.title', { node: 'signoff' }) }).waitFor({ timeout: 20_000 }));
        await settle(page, 2500);
        await tried(page.getByRole('region', { name: w('results.sofar') }).scrollIntoViewIfNeeded({ timeout: 2000 }));
        await shot(page, 'evidence-files');
      });

      test('a file no application opens', async ({ page, studio }) => {
        void studio;
        await runTab(page);
        await choose(page, 'e2e_excel');
        await start(page);
        await finished(page);
        const results = page.getByRole('region', { name: w('results.title') });
        await tried(results.getByRole('button', { name: w('results.open'), exact: true }).first().click({ timeout: 5000 }));
        await settle(page, 2500);
        await tried(results.scrollIntoViewIfNeeded({ timeout: 2000 }));
        await shot(page, 'open-failed');
      });

      test('a missing file named by a variable', async ({ page, studio }) => {
        mkdirSync(join(studio.workspace, 'bank', '2026-10'), { recursive: true });
        writeFileSync(join(studio.workspace, 'bank', '2026-10', 'payments_oct.csv'), BANK_CSV);
        await runTab(page);
        await choose(page, 'e2e_var_file');
        await settle(page);
        await shot(page, 'file-var');
      });

      test('a missing file written in the step', async ({ page, studio }) => {
        void studio;
        await runTab(page);
        await choose(page, 'e2e_step_file');
        await settle(page);
        await shot(page, 'file-step');
      });

      test('"Run again" after the file has gone', async ({ page, studio }) => {
        mkdirSync(join(studio.workspace, 'bank'), { recursive: true });
        writeFileSync(join(studio.workspace, 'bank', 'payments_oct.csv'), BANK_CSV);
        await runTab(page);
        await choose(page, 'e2e_step_file');
        await start(page);
        await finished(page);
        rmSync(join(studio.workspace, 'bank', 'payments_oct.csv'));
        await tried(page.getByRole('button', { name: w('run.rerun') }).first().click({ timeout: 5000 }));
        await settle(page, 2500);
        await shot(page, 'run-again');
      });

      test("the Design tab's words", async ({ page, studio }) => {
        void studio;
        await tried(page.getByRole('tab', { name: w('tab.design') }).click({ timeout: 3000 }));
        await tried(page.getByRole('button', { name: w('start.yaml') }).click({ timeout: 2000 }));
        await tried(typePlan(page, MONTH_PLAN));
        await tried(page.getByRole('button', { name: w('design.dryRun'), exact: true }).click({ timeout: 5000 }));
        await settle(page, 2500);
        await shot(page, 'design-words');
      });

      test('browser objectives, their evidence, the planning history and the report', async ({ page, studio, sites }) => {
        void studio;
        test.setTimeout(180_000);
        await runTab(page);
        await choose(page, 'statement');
        await tried(page.getByLabel('start_url', { exact: true }).fill(`${sites.origin}${PORTAL[lang]}`, { timeout: 5000 }));
        await start(page);
        await finished(page, 120_000);
        await settle(page, 2000);
        await tried(page.locator('.runs > section.main').evaluate((el) => el.scrollTo(0, 0)));
        await shot(page, 'objectives');
        await tried(page.locator('.timeline-panel').evaluate((el) => el.scrollIntoView({ block: 'start' })));
        await shot(page, 'planning-history');
        const download = page.waitForEvent('download', { timeout: 10_000 });
        await tried(page.getByRole('button', { name: w('run.reportHtml') }).click({ timeout: 5000 }));
        const path = await download.then((d) => d.path()).catch(() => null);
        if (path) {
          const report = await page.context().newPage();
          await report.goto(`file://${path}`);
          await report.evaluate(() => document.fonts.ready);
          await report.screenshot({ path: join(OUT, `report-${lang}-${theme}.png`), animations: 'disabled' });
          await report.close();
        }
      });

      test("the QA example's sign-off and its TC-03 evidence", async ({ page, studio, sites }) => {
        test.setTimeout(300_000);
        await runTab(page);
        await choose(page, 'qa_expense_app_regression');
        await tried(page.getByLabel('base_url', { exact: true }).fill(`${sites.origin}/objectives/expense`, { timeout: 5000 }));
        await start(page);
        await tried(page.getByRole('form', { name: w('input.title', { node: 'qa_signoff' }) }).waitFor({ timeout: 240_000 }));
        await settle(page, 2000);
        await tried(page.getByRole('form', { name: w('input.title', { node: 'qa_signoff' }) }).scrollIntoViewIfNeeded({ timeout: 2000 }));
        await shot(page, 'qa-signoff');
        const evidence = findFile(studio.workspace, 'TC-03_required_error.png');
        if (evidence && lang === 'en' && theme === 'light') copyFileSync(evidence, join(OUT, 'qa-tc03-evidence.png'));
      });
    });
  }
}

function findFile(dir: string, name: string): string | null {
  if (!existsSync(dir)) return null;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findFile(path, name);
      if (found) return found;
    } else if (entry.name === name) return path;
  }
  return null;
}

// Screenshots of the live objective view (mid-run and finished; a form sent once), the escalation form and the
// Settings tab's planning section, in English and Japanese, light and dark, at 1280×800 (the
// finished view and the form also at 1920×1080): after `npm run build` and `cargo build -p
// planwright`, `PLANWRIGHT_SCREENSHOTS=DIR npx playwright test e2e/run-screens.spec.ts`. Skipped
// in the ordinary test run; each picture is taken once what it shows is there. The images in
// docs/images (run-objectives-*, escalation-*, settings-planning-*, run-refused-*) are a selection of them. English runs use the English portal fixture,
// Japanese ones the Japanese supplier portal, so the steps read in the studio's language.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './sites';

const OUT = process.env.PLANWRIGHT_SCREENSHOTS ?? '';

interface Words {
  run: string;
  stop: string;
  settings: string;
  waited: string;
  objectives: (node: string) => string;
  decision: (node: string) => string;
  planning: string;
  analysis: string;
  readAnalysis: string;
  enlarge: RegExp;
  succeeded: RegExp;
  notPassed: RegExp;
  failed: RegExp;
  stopped: RegExp;
}

const WORDS: Record<'en' | 'ja', Words> = {
  en: {
    run: 'Run',
    stop: 'Stop',
    settings: 'Settings',
    waited: 'Waited for the page',
    objectives: (node) => `Objectives of ${node}`,
    decision: (node) => `Your decision is needed: ${node}`,
    planning: 'Planning',
    analysis: 'Technical analysis',
    readAnalysis: 'Read the technical analysis',
    enlarge: /Enlarge the screenshot of objective 1/,
    succeeded: /succeeded/i,
    notPassed: /not passed/i,
    failed: /failed/i,
    stopped: /stopped/i,
  },
  ja: {
    run: '実行',
    stop: '停止',
    settings: '設定',
    waited: 'ページの表示を待った',
    objectives: (node) => `${node} の目標`,
    decision: (node) => `あなたの判断が必要です：${node}`,
    planning: '計画',
    analysis: '技術的な分析',
    readAnalysis: '技術的な分析を読む',
    enlarge: /目標 1.*のスクリーンショットを拡大/,
    succeeded: /成功/,
    notPassed: /未達成/,
    failed: /失敗/,
    stopped: /停止/,
  },
};

const EN_STEPS = `1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}
        2. Open the Statements page
        3. Download the October 2026 statement`;
const JA_STEPS = `1. ユーザーID {{PORTAL_USER}} とパスワード {{PORTAL_PASSWORD}} でログインする
        2. メニューの「取引明細」を開く
        3. 対象月で「2024年4月」を選んで「表示」を押す
        4. 明細の表が表示されたことを確認する
        5. 「CSVダウンロード」を押して明細をダウンロードする`;

function plan(id: string, node: string, steps: string, extra = ''): string {
  return `apiVersion: planwright/v1
id: ${id}
version: 1.0.0
vars:
  start_url: http://127.0.0.1:9/
secrets: [PORTAL_USER, PORTAL_PASSWORD]
graph:
  - id: ${node}
    block: browser.run_objectives
    in:
      start_url: \${vars.start_url}
      steps: |
        ${steps}
${extra}`;
}

const PLANS = {
  'statement.yaml': plan('statement', 'download_statement', EN_STEPS),
  // One more step that is not on the page: its revisions wait for the page, mid-run.
  'statement_live.yaml': plan('statement_live', 'download_statement', `${EN_STEPS}\n        4. Click the Export to Excel button`, '      on_unsatisfied: report\n'),
  'export.yaml': plan(
    'export',
    'export',
    `1. Search for widget\n        2. Click the Export button`,
    '      max_iterations: 1\n      max_revisions: 0\n',
  ),
  'meisai.yaml': plan('meisai', 'download_statement', JA_STEPS),
  'meisai_live.yaml': plan('meisai_live', 'download_statement', `${JA_STEPS}\n        6. 「Excel出力」を押す`, '      on_unsatisfied: report\n'),
  // A secret the step names for a field that is another site's (a frame): refused, never typed.
  'refused.yaml': plan(
    'refused',
    'sign_in',
    `1. Type {{PORTAL_PASSWORD}} into Password\n        2. Click Sign in`,
    '      max_retries_per_step: 1\n      max_iterations: 1\n      max_revisions: 0\n      on_unsatisfied: report\n',
  ),
  'kyohi.yaml': plan(
    'kyohi',
    'sign_in',
    `1. 「Password」に {{PORTAL_PASSWORD}} と入力する\n        2. 「Sign in」を押す`,
    '      max_retries_per_step: 1\n      max_iterations: 1\n      max_revisions: 0\n      on_unsatisfied: report\n',
  ),
  // A send whose effect the page never shows: asked whether it happened, never sent again.
  'silent.yaml': plan(
    'silent',
    'send_report',
    `1. Click "Send report" to send it to accounting`,
    '      max_iterations: 1\n      max_revisions: 0\n',
  ),
  'soushin.yaml': plan(
    'soushin',
    'send_report',
    `1. 「Send report」を押し、経理に届いたことを確認する`,
    '      max_iterations: 1\n      max_revisions: 0\n',
  ),
  // A form in another site's frame, sent once: the send's request and its answer under it.
  'contact.yaml': plan(
    'contact',
    'contact',
    `1. Type "Priya Raman" into "Name"
        2. Type "priya.raman@example.com" into "Email"
        3. Type "The CSV export on the Reports page has been empty since Monday." into "How can we help?"
        4. Click "Send message"`,
  ),
  'otoiawase.yaml': plan(
    'otoiawase',
    'contact',
    `1. 「お名前」に「高橋 真理」と入力する
        2. 「メールアドレス」に「m.takahashi@example.jp」と入力する
        3. 「お問い合わせの種類」で「ご契約について」を選ぶ
        4. 「お問い合わせ内容」に「更新の手続きについて教えてください。」と入力する
        5. 「送信」を押す`,
  ),
  'meisai_check.yaml': plan(
    'meisai_check',
    'download_statement',
    `1. ユーザーID {{PORTAL_USER}} とパスワード {{PORTAL_PASSWORD}} でログインする\n        2. 「一括ダウンロード」を押す`,
    '      max_iterations: 1\n      max_revisions: 0\n',
  ),
};

const START = {
  en: { portal: '/objectives/portal/login.html?instant=1', shop: '/objectives/shop/search.html?instant=1' },
  ja: { portal: '/objectives/supplier-ja/login.html', shop: '/objectives/supplier-ja/login.html?instant=1' },
};

async function shot(page: Page, name: string) {
  // Let the last frame settle (fonts, images decoded); animations are off.
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(OUT, `${name}.png`), animations: 'disabled' });
}

async function start(page: Page, w: Words, file: string, planId: string, url: string) {
  await page.getByRole('tab', { name: w.run }).click();
  await page.locator('.start select').selectOption({ label: `${planId} (${file})` });
  await page.getByLabel('start_url', { exact: true }).fill(url);
  await page.locator('.start button.primary').click();
}

async function thumbnailsLoaded(page: Page) {
  const thumbs = page.locator('.objectives-view button.thumb');
  const n = await thumbs.count();
  for (let i = 0; i < n; i++) await expect(thumbs.nth(i).locator('img')).toBeVisible();
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
        plans: PLANS,
        serveEnv: {
          PLANWRIGHT_SECRET_PORTAL_USER: lang === 'ja' ? 'tk-suzuki' : 'a.kowalski',
          PLANWRIGHT_SECRET_PORTAL_PASSWORD: 'correct horse battery',
        },
      });
      const w = WORDS[lang];
      const v = `${lang}-${theme}`;
      const files =
        lang === 'en'
          ? { done: 'statement', live: 'statement_live', ask: 'export', silent: 'silent' }
          : { done: 'meisai', live: 'meisai_live', ask: 'meisai_check', silent: 'soushin' };

      test('the objective view, live and finished', async ({ page, studio, sites }) => {
        void studio;
        test.setTimeout(180_000);
        const list = page.getByRole('list', { name: w.objectives('download_statement') });

        // Mid-run: the last objective waits for the page; the ones before are done.
        await start(page, w, `${files.live}.yaml`, files.live, `${sites.origin}${START[lang].portal}`);
        await expect(list.getByText(w.waited)).toBeVisible({ timeout: 60_000 });
        await thumbnailsLoaded(page);
        await shot(page, `run-objectives-live-${v}`);
        await page.getByRole('button', { name: w.stop }).click();
        await expect(page.locator('.run-head [role=status]')).toHaveText(w.stopped);
        // Its planning history: the plan, the failed attempts looked back at, the revisions.
        await page.locator('.timeline-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await shot(page, `run-objectives-history-${v}`);

        // Finished.
        await start(page, w, `${files.done}.yaml`, files.done, `${sites.origin}${START[lang].portal}`);
        await expect(page.locator('.run-head [role=status]')).toHaveText(w.succeeded, { timeout: 60_000 });
        await thumbnailsLoaded(page);
        await page.locator('.runs > section.main').evaluate((el) => el.scrollTo(0, 0));
        await shot(page, `run-objectives-${v}`);

        // The screenshot dialog.
        await list.getByRole('button', { name: w.enlarge }).click();
        await expect(page.getByRole('dialog').locator('img')).toBeVisible();
        await shot(page, `run-objectives-shot-${v}`);
        await page.keyboard.press('Escape');

        // The same at 1920×1080.
        await page.setViewportSize({ width: 1920, height: 1080 });
        await shot(page, `run-objectives-${v}-1920`);
      });

      test('an action refused because the field is another site’s', async ({ page, studio, sites }) => {
        void studio;
        test.setTimeout(120_000);
        const file = lang === 'en' ? 'refused' : 'kyohi';
        await start(page, w, `${file}.yaml`, file, `${sites.origin}/trust/frame-login.html?instant=1`);
        // A task the runner could not complete fails its node, and so the run.
        await expect(page.locator('.run-head [role=status]')).toHaveText(w.failed, { timeout: 60_000 });
        const list = page.getByRole('list', { name: w.objectives('sign_in') });
        await expect(list).toContainText('another site');
        await page.locator('.runs > section.main').evaluate((el) => el.scrollTo(0, 0));
        await shot(page, `run-refused-${v}`);
        await page.locator('.runs > section.main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await shot(page, `run-refused-log-${v}`);
      });

      test('a form sent once, with the request it started', async ({ page, studio, sites }) => {
        void studio;
        test.setTimeout(120_000);
        const file = lang === 'en' ? 'contact' : 'otoiawase';
        const url = lang === 'en' ? '/objectives/helpline/contact.html?instant=1' : '/objectives/otoiawase/index.html?instant=1';
        await start(page, w, `${file}.yaml`, file, `${sites.origin}${url}`);
        await expect(page.locator('.run-head [role=status]')).toHaveText(w.succeeded, { timeout: 60_000 });
        // The send is the last objective; a done objective's actions are folded: open them.
        const sent = page.getByRole('list', { name: w.objectives('contact') }).locator('li.objective').last();
        await sent.locator('details.actions > summary').click();
        await expect(sent.locator('.badge.effect.effectful')).toBeVisible();
        await expect(sent.locator('ul.requests')).toContainText('POST /');
        // Its card at the foot of the run view, the studio's own header kept in the picture.
        await page.locator('.runs > section.main').evaluate((main) => {
          const card = [...main.querySelectorAll('li.objective')].pop()!;
          main.scrollTop += card.getBoundingClientRect().bottom - main.getBoundingClientRect().bottom + 24;
          window.scrollTo(0, 0);
        });
        await shot(page, `run-sent-once-${v}`);
      });

      test('the escalation of an effect not seen', async ({ page, studio, sites }) => {
        void studio;
        test.setTimeout(120_000);
        await start(page, w, `${files.silent}.yaml`, files.silent, `${sites.origin}/effects/silent.html?instant=1`);
        const form = page.getByRole('form', { name: w.decision('send_report') });
        await expect(form).toBeVisible({ timeout: 60_000 });
        await expect(form.getByRole('radio', { name: lang === 'en' ? /It was done/ : /完了していた/ })).toBeVisible();
        await expect(form.getByRole('radio', { name: lang === 'en' ? /do it again/ : /もう一度行う/ })).toBeVisible();
        await form.getByRole('radio').first().check();
        await shot(page, `escalation-effect-${v}`);
      });

      test('the escalation form', async ({ page, studio, sites }) => {
        void studio;
        test.setTimeout(120_000);
        await start(page, w, `${files.ask}.yaml`, files.ask, `${sites.origin}${START[lang].shop}`);
        const form = page.getByRole('form', { name: w.decision(lang === 'en' ? 'export' : 'download_statement') });
        await expect(form).toBeVisible({ timeout: 60_000 });
        await form.getByRole('radio').nth(2).check();
        await shot(page, `escalation-${v}`);
        await form.getByRole('radio', { name: lang === 'en' ? /technical analysis/ : /技術的な分析/ }).check();
        await form.locator('button[type=submit]').click();
        const again = page.getByRole('form', { name: w.decision(lang === 'en' ? 'export' : 'download_statement') });
        await again.getByRole('button', { name: w.readAnalysis }).click();
        await expect(page.getByRole('dialog', { name: w.analysis }).getByRole('heading').first()).toBeVisible();
        await shot(page, `escalation-analysis-${v}`);
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 1920, height: 1080 });
        await shot(page, `escalation-${v}-1920`);
        // The partial result accepted: the node ends, marked as not passed.
        await page.setViewportSize({ width: 1280, height: 800 });
        await again.getByRole('radio', { name: lang === 'en' ? /Accept the partial result/ : /途中までの結果で受け入れる/ }).check();
        await again.locator('button[type=submit]').click();
        const notPassed = page.locator('.objectives-view .badge.bad');
        await expect(notPassed).toBeVisible({ timeout: 30_000 });
        await notPassed.scrollIntoViewIfNeeded();
        await shot(page, `run-objectives-not-passed-${v}`);
      });

      test('the planning settings', async ({ page, studio }) => {
        void studio;
        await page.getByRole('tab', { name: w.settings }).click();
        const section = page.getByRole('region', { name: w.planning, exact: true });
        await section.scrollIntoViewIfNeeded();
        await section.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await shot(page, `settings-planning-${v}`);
      });
    });
  }
}

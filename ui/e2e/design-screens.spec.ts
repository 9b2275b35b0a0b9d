// Screenshots of the Design tab, step by step, in English and Japanese, light and dark, at
// 1280×800 (and the result at 1920×1080): scripts/design-screenshots, or
// `PLANWRIGHT_SCREENSHOTS=DIR npx playwright test e2e/design-screens.spec.ts`. Skipped in the
// ordinary test run; each step still checks what it shows before the picture is taken.
// design-data-bound-chat-* (a column asked with the workspace file's columns as choices),
// design-job-questions-* (an instruction that says no job: what to read, do, write) and
// design-reasoning-* (the reasoning of an instruction in the other language, said in the studio's).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './studio';
import { withStalledModel } from './stalledModel';

const OUT = process.env.PLANWRIGHT_SCREENSHOTS ?? '';
const FIXTURES = join(import.meta.dirname, 'fixtures');

const TEMPLATE = readFileSync(join(FIXTURES, 'misspelt_report.yaml'), 'utf8');

const WORDS = {
  en: {
    instruction: 'Read the CSV file, classify each row with the model and write the result to result.csv',
    ask: 'What should the automation do?',
    documents: 'Documents',
    templates: 'Templates',
    template: 'Write the rows as a report',
    pin: /^Pin transforms/,
    again: 'Generate again',
    tabs: { generation: 'How it was made', missing: 'To fill in', chat: 'Questions', history: 'History' },
    form: 'Your answer',
    send: 'Send',
    runtime: 'Ask some of these when the plan runs instead…',
  },
  ja: {
    instruction: 'CSVファイルを読み込み、各行をモデルで分類して result.csv に出力する',
    ask: '自動化したい業務を書いてください',
    documents: '参考資料',
    templates: 'テンプレート',
    template: '行をレポートに書き出す',
    pin: /transforms.* を固定/,
    again: 'もう一度生成',
    tabs: { generation: '作成の経緯', missing: '未入力', chat: '質問', history: '履歴' },
    form: '回答',
    send: '送信',
    runtime: 'いくつかの質問を実行時に尋ねる…',
  },
} as const;

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
}

for (const lang of ['en', 'ja'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`${lang} ${theme}`, () => {
      test.skip(OUT === '', 'set PLANWRIGHT_SCREENSHOTS to a folder to take the screenshots');
      test.use({
        locale: lang === 'ja' ? 'ja-JP' : 'en-US',
        colorScheme: theme,
        viewport: { width: 1280, height: 800 },
        plans: { 'templates/test/misspelt_report.yaml': TEMPLATE },
      });

      test('the Design tab, step by step', async ({ page, studio }) => {
        void studio;
        test.setTimeout(180_000);
        const w = WORDS[lang];
        const v = `${lang}-${theme}`;
        await page.getByRole('textbox', { name: w.ask }).fill(w.instruction);
        await expect(page.locator('.candidates li').first()).toBeVisible();
        await shot(page, `1-describe-${v}`);

        await page.locator('summary', { hasText: w.documents }).click();
        await page.locator('input[type=file]').setInputFiles(join(FIXTURES, 'expense_rules.pdf'));
        await expect(page.getByText('expense_rules.pdf')).toBeVisible();
        await shot(page, `2-documents-${v}`);
        await page.locator('summary', { hasText: w.documents }).click();

        await page.locator('summary', { hasText: w.templates }).click();
        await page.getByRole('checkbox', { name: w.template }).check();
        await shot(page, `3-templates-${v}`);
        await page.locator('summary', { hasText: w.templates }).click();

        await page.getByRole('button', { name: w.pin }).first().click();
        await expect(page.locator('.candidates li.pinned').first()).toBeVisible();
        await shot(page, `4-candidates-${v}`);

        await page.keyboard.press('Control+Enter');
        await expect(page.getByRole('button', { name: w.again })).toBeEnabled();
        await expect(page.getByRole('form', { name: w.form })).toBeVisible();
        await expect(page.getByRole('img', { name: /Graph|グラフ/ })).toContainText('read_input');
        await shot(page, `5-generated-chat-${v}`);

        await page.getByRole('tab', { name: w.tabs.generation }).click();
        await expect(page.locator('.diff .added').first()).toBeVisible();
        await shot(page, `6-repair-review-${v}`);

        await page.getByRole('tab', { name: new RegExp(`^${w.tabs.missing}`) }).click();
        await expect(page.locator('.missing li').first()).toBeVisible();
        await shot(page, `7-missing-${v}`);

        await page.getByRole('tab', { name: new RegExp(`^${w.tabs.chat}`) }).click();
        await page.getByText(w.runtime).click();
        await expect(page.locator('.runtime input[type=checkbox]')).toHaveCount(2);
        await shot(page, `8-chat-run-time-${v}`);
        await page.getByText(w.runtime).click();
        const form = page.getByRole('form', { name: w.form });
        await form.locator('input').fill('data/inquiries.csv');
        await form.getByRole('button', { name: w.send }).click();
        await expect(page.locator('.fills')).toContainText('data/inquiries.csv');
        await shot(page, `8-chat-answered-${v}`);

        await page.getByRole('tab', { name: w.tabs.history }).click();
        await expect(page.locator('.figures')).toBeVisible();
        await shot(page, `9-history-${v}`);

        if (theme === 'light') {
          await page.setViewportSize({ width: 1920, height: 1080 });
          await page.getByRole('tab', { name: new RegExp(`^${w.tabs.chat}`) }).click();
          await shot(page, `10-wide-${v}`);
        }
      });
    });
  }
}

for (const lang of ['en', 'ja'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    withStalledModel.describe(`${lang} ${theme}, with a model that takes its time`, () => {
      withStalledModel.skip(OUT === '', 'set PLANWRIGHT_SCREENSHOTS to a folder to take the screenshots');
      withStalledModel.use({ locale: lang === 'ja' ? 'ja-JP' : 'en-US', colorScheme: theme, viewport: { width: 1280, height: 800 } });

      withStalledModel('a generation under way, with its Cancel', async ({ page, studio }) => {
        void studio;
        const w = WORDS[lang];
        await page.getByRole('textbox', { name: w.ask }).fill(w.instruction);
        await page.keyboard.press('Control+Enter');
        await expect(page.locator('.progress li.active')).toHaveCount(1);
        await expect(page.locator('.progress li.active')).toContainText(lang === 'ja' ? 'モデル段階1' : 'Model stage 1');
        await shot(page, `5a-generating-${lang}-${theme}`);
        await page.keyboard.press('Escape');
        await expect(page.locator('.progress')).toHaveCount(0);
      });
    });
  }
}

/** A payments file whose two amount columns the words cannot tell apart, and an instruction for it. */
const BOUND = {
  en: {
    file: 'date,vendor,billed_amount,paid_amount\n2026-03-02,Acme Supplies,1200,1200\n2026-03-03,Blue Freight,860.5,400\n',
    instruction: 'Read data/payments.csv, total the amount per supplier and write supplier_totals.csv',
    question: 'Which column is "amount"?',
    vague: 'do the monthly thing',
    read: 'What should it read?',
    // A Japanese instruction on this file, its reasoning said in English.
    bound: '“取引先” is the column “vendor” in the data.',
  },
  ja: {
    file: '日付,支払先,請求額,入金額\n2026-03-02,株式会社山田商事,132000,132000\n2026-03-03,東和物流株式会社,88000,40000\n',
    instruction: 'data/payments.csv を読み込み、取引先ごとに金額を合計して取引先別合計.csv に出力して',
    question: '「金額」はどの列ですか？',
    vague: 'いつものやつをお願い',
    read: '何を読み込みますか？',
    // An English instruction on this file, its reasoning said in Japanese.
    bound: '「supplier」はデータの列「支払先」です。',
  },
} as const;

for (const lang of ['en', 'ja'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`${lang} ${theme}, designed from the data`, () => {
      test.skip(OUT === '', 'set PLANWRIGHT_SCREENSHOTS to a folder to take the screenshots');
      test.use({ locale: lang === 'ja' ? 'ja-JP' : 'en-US', colorScheme: theme, viewport: { width: 1280, height: 800 } });

      test('the chat asks with the file\'s columns, and asks what the job is when the words do not say', async ({ page, studio }) => {
        const w = WORDS[lang];
        const b = BOUND[lang];
        const v = `${lang}-${theme}`;
        mkdirSync(join(studio.workspace, 'data'), { recursive: true });
        writeFileSync(join(studio.workspace, 'data', 'payments.csv'), b.file);
        await page.getByRole('textbox', { name: w.ask }).fill(b.instruction);
        await page.keyboard.press('Control+Enter');
        const form = page.getByRole('form', { name: w.form });
        await expect(form).toContainText(b.question);
        await expect(form.getByRole('combobox').locator('option')).toHaveCount(5);
        await shot(page, `design-data-bound-chat-${v}`);

        await page.getByRole('textbox', { name: w.ask }).fill(b.vague);
        await page.keyboard.press('Control+Enter');
        await expect(form).toContainText(b.read);
        await shot(page, `design-job-questions-${v}`);

        // The reasoning in the studio's language, whatever the instruction's.
        const other = BOUND[lang === 'en' ? 'ja' : 'en'];
        await page.getByRole('textbox', { name: w.ask }).fill(other.instruction);
        await page.keyboard.press('Control+Enter');
        await expect(form).toContainText(other.question);
        await page.getByRole('tab', { name: w.tabs.generation }).click();
        await expect(page.locator('.reasoning')).toContainText(b.bound);
        await shot(page, `design-reasoning-${v}`);
      });
    });
  }
}

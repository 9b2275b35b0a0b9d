// The Design tab end to end, offline, as a person uses it: describe → candidates → generate →
// chat → register, documents, templates, the repair review, and a cancelled generation.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, typePlan } from './studio';
import { withStalledModel } from './stalledModel';

const FIXTURES = join(import.meta.dirname, 'fixtures');

/** The plan in the editor, as the tab keeps it in this window (the editor draws only the lines in view). */
async function editorText(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('planwright.editor') ?? '{}') as { text?: string }).text ?? '');
}

async function describe(page: Page, instruction: string) {
  await page.getByRole('tab', { name: 'Design' }).click();
  await page.getByRole('textbox', { name: 'What should the automation do?' }).fill(instruction);
}

const generateButton = (page: Page) => page.getByRole('button', { name: /^(Generate plan|Generate again)$/ });

/** Generates and waits for the result (the button reads "Generate again" once a plan came). */
async function generate(page: Page) {
  await generateButton(page).click();
  await expect(page.getByRole('button', { name: 'Generate again' })).toBeEnabled();
}

test('an English instruction: candidates appear, and Generate gives a valid plan in the editor', async ({ page, studio }) => {
  void studio;
  await describe(page, 'Read expenses.csv, keep the rows where amount is over 50000, and write them to large_expenses.csv.');
  const candidates = page.getByRole('list', { name: 'Candidates: file' });
  await expect(candidates).toContainText('file.read_csv');
  await generate(page);
  await expect(page.getByRole('list', { name: 'Generation progress' })).toContainText('Validated and given a test run');
  await expect(page.locator('.status .badge.ok')).toHaveText('Valid');
  await expect.poll(() => editorText(page)).toContain('block: file.read_csv');
  const text = await editorText(page);
  expect(text).toContain('expenses.csv');
  expect(text).toContain('50000');
  await expect(page.getByText('Designed by the offline designer').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Checks' }).click();
  await expect(page.getByText('Nothing to fix: the plan is valid.')).toBeVisible();
});

test('a Japanese instruction with a PDF: the document is listed, read and given to the design', async ({ page, studio }) => {
  void studio;
  await describe(page, 'expenses.csv を読み込み、金額が50000円を超える行を抽出して large.csv に出力する');
  await page.getByText('Documents', { exact: true }).click();
  await page.locator('input[type=file]').setInputFiles(join(FIXTURES, 'expense_rules.pdf'));
  const docs = page.getByRole('list', { name: 'Documents added' });
  await expect(docs).toContainText('expense_rules.pdf');
  await expect(docs).toContainText('1 page');
  await expect(docs).toContainText(/characters read/);
  await generate(page);
  await expect(page.getByRole('list', { name: 'Generation progress' })).toContainText('Documents read: 1 of 1');
  await expect(page.locator('.status .badge.ok')).toHaveText('Valid');
  await page.getByRole('tab', { name: 'How it was made' }).click();
  const used = page.getByRole('list', { name: 'Documents given to the design' });
  await expect(used).toContainText('expense_rules.pdf');
  await expect(used).toContainText('1 page');
  await expect.poll(() => editorText(page)).toContain('金額');
});

test('a template chosen in compose mode: its nodes are in the plan with prefixed ids', async ({ page, studio }) => {
  void studio;
  await describe(page, 'Reconcile the bank statement with the ledger');
  await page.getByText('Templates', { exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search templates' }).fill('bank');
  await page.getByRole('checkbox', { name: 'Match invoices with bank deposits' }).check();
  await expect(page.getByRole('radio', { name: /Compose/ })).toBeChecked();
  await generate(page);
  await expect.poll(() => editorText(page)).toContain('id: bank_reconciliation_match');
  await page.getByRole('tab', { name: 'How it was made' }).click();
  await expect(page.getByText('Templates used: bank_reconciliation')).toBeVisible();
});

test('a missing input is asked in the chat, the answer fills vars, and the plan registers', async ({ page, studio }) => {
  void studio;
  await describe(page, 'Read the CSV file, remove the duplicate rows and write the rest to big.csv');
  await generate(page);
  const form = page.getByRole('form', { name: 'Your answer' });
  await expect(form).toContainText('The CSV file to read');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form.getByRole('alert')).toBeVisible();
  await form.getByLabel(/The CSV file to read/).fill('data/sales.csv');
  await form.getByLabel(/The CSV file to read/).press('Enter');
  await expect(page.getByRole('region', { name: 'Your answers fill' })).toContainText('vars.input_file = data/sales.csv');
  await expect(page.getByText('Every question is answered.')).toBeVisible();
  await expect.poll(() => editorText(page)).toContain('input_file: data/sales.csv');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.locator('.status .badge.ok')).toHaveText('Valid');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText(/Registered as big_\d{12}\.yaml/)).toBeVisible();
  await page.getByRole('radio', { name: 'Designs' }).click();
  await expect(page.getByRole('list', { name: 'Designs' })).toContainText('big');
});

test('an instruction that says no job gets questions, not a plan, and the answers design it', async ({ page, studio }) => {
  void studio;
  await page.getByRole('tab', { name: 'Design' }).click();
  const before = await editorText(page);
  await describe(page, 'do the monthly thing');
  await generate(page);
  await expect(page.getByText(/I cannot tell yet what this job reads, does or writes/)).toBeVisible();
  expect(await editorText(page), 'no plan replaces the one in the editor').toBe(before);
  const form = page.getByRole('form', { name: 'Your answer' });
  for (const [question, answer] of [
    ['What should it read?', 'payments.csv'],
    ['What should it do with the data?', 'keep the rows where amount is over 100'],
    ['What should it write?', 'big_payments.csv'],
  ]) {
    await expect(form).toContainText(question);
    await form.getByRole('textbox').fill(answer);
    await form.getByRole('textbox').press('Enter');
  }
  await expect(page.getByText('Designing the plan again with your answers')).toBeVisible();
  await expect.poll(() => editorText(page)).toContain('big_payments.csv');
  const text = await editorText(page);
  expect(text).toContain('path: payments.csv');
  expect(text).toContain('block: transforms.filter');
});

test('the words are bound to the workspace file\'s columns, and a column it cannot tell is asked with them as choices', async ({ page, studio }) => {
  mkdirSync(join(studio.workspace, 'data'), { recursive: true });
  writeFileSync(
    join(studio.workspace, 'data', 'payments.csv'),
    'date,vendor,billed_amount,paid_amount\n2026-03-02,Acme,1200,1200\n2026-03-03,Blue Freight,860.5,400\n',
  );
  await describe(page, 'Read data/payments.csv, total the amount per supplier and write supplier_totals.csv');
  await generate(page);
  const form = page.getByRole('form', { name: 'Your answer' });
  await expect(form).toContainText('Which column is "amount"?');
  const choice = form.getByRole('combobox');
  await expect(choice.locator('option')).toHaveText(['Choose…', 'date', 'vendor', 'billed_amount', 'paid_amount']);
  await choice.selectOption('paid_amount');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => editorText(page)).toContain('amount_column: paid_amount');
  expect(await editorText(page), '"supplier" is the file\'s vendor').toContain('- vendor');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.locator('.status .badge.ok')).toHaveText('Valid');
});

test('a skipped question stays open, and Register asks before registering a plan with open questions', async ({ page, studio }) => {
  void studio;
  await describe(page, 'Read the CSV file, remove the duplicate rows and write the rest to big.csv');
  await generate(page);
  const form = page.getByRole('form', { name: 'Your answer' });
  await form.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page.getByText('One skipped question is still open.')).toBeVisible();
  await page.getByRole('button', { name: 'Register' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('One question is still open');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText(/Registered as/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Ask again' }).click();
  await expect(form).toBeVisible();
});

test('a password written in the instruction is replaced by its placeholder', async ({ page, studio }) => {
  void studio;
  await describe(page, 'Log in to https://portal.example.com with user admin and password Hunter2-canary and download the invoices');
  await generate(page);
  await expect(page.getByRole('textbox', { name: 'What should the automation do?' })).toHaveValue(/\{\{LOGIN_PASSWORD\}\}/);
  await expect(page.getByRole('textbox', { name: 'What should the automation do?' })).not.toHaveValue(/Hunter2-canary/);
  expect(await page.evaluate(() => localStorage.getItem('planwright.editor') ?? '')).not.toContain('Hunter2-canary');
});

test('a password typed before any generation is kept in no storage of this window', async ({ page, studio }) => {
  void studio;
  // The session as typed goes to the studio, which keeps it with the password as its placeholder.
  const kept = page.waitForResponse(
    (r) => r.url().includes('/session') && r.request().method() === 'PUT' && (r.request().postData() ?? '').includes('Hunter2-typed'),
  );
  await describe(page, 'Sign in to https://portal.example.com as admin, password is Hunter2-typed!, and download the invoices');
  expect((await kept).ok()).toBe(true);
  const stored = () => page.evaluate(() => localStorage.getItem('planwright.editor') ?? '');
  await expect.poll(stored).toContain('{{LOGIN_PASSWORD}}');
  expect(await stored()).not.toContain('Hunter2-typed');
});

const MISSPELT_TEMPLATE = readFileSync(join(FIXTURES, 'misspelt_report.yaml'), 'utf8');

test.describe('a generation with a repair round', () => {
  test.use({ plans: { 'templates/test/misspelt_report.yaml': MISSPELT_TEMPLATE } });

  test('shows the round node by node, and goes back to the first attempt', async ({ page, studio }) => {
    void studio;
    await describe(page, 'Read expenses.csv and write a report');
    await page.getByText('Templates', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Write the rows as a report' }).check();
    await generate(page);
    await expect(page.getByRole('list', { name: 'Generation progress' })).toContainText('Repair round 1');
    await page.getByRole('tab', { name: 'How it was made' }).click();
    const round = page.getByRole('region', { name: /Repair round 1/ });
    await expect(round).toContainText('Repair round 1: 1 → 0 errors');
    await expect(round.locator('.diff .removed')).toContainText('block: report.writ');
    await expect(round.locator('.diff .added')).toContainText('block: report.write');
    await expect(page.locator('.status .badge.ok')).toHaveText('Valid');
    await page.getByRole('button', { name: 'Go back to this' }).click();
    await expect.poll(() => editorText(page)).toContain('block: report.writ\n');
    await expect(page.locator('.status .badge.bad')).toBeVisible();
    await page.getByRole('button', { name: 'Use the result' }).click();
    await expect(page.locator('.status .badge.ok')).toHaveText('Valid');
  });
});

withStalledModel('a cancelled generation leaves the plan in the editor as it was', async ({ page, studio }) => {
  void studio;
  await describe(page, 'Read expenses.csv and write out.csv');
  const before = await editorText(page);
  await generateButton(page).click();
  await expect(page.getByRole('list', { name: 'Generation progress' })).toContainText('Model stage 1: the steps');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Generation cancelled; the plan in the editor is as it was.')).toBeVisible();
  await expect(generateButton(page)).toBeEnabled();
  expect(await editorText(page)).toBe(before);
});

test('a plan pasted over the step being inspected: the inspector lets the step go rather than call the text unreadable', async ({ page, studio }) => {
  void studio;
  const plan = (id: string) => `apiVersion: planwright/v1\nid: e2e_pasted\nversion: 1.0.0\ngraph:\n  - id: ${id}\n    block: report.write\n    in: {data: {n: 1}, format: json, path: out/n.json}\n`;
  await page.getByRole('tab', { name: 'Design' }).click();
  await typePlan(page, plan('save'));
  await page.locator('.cm-line', { hasText: 'block: report.write' }).click();
  const step = page.getByLabel('Step to edit');
  await expect(step).toHaveValue('save');

  await typePlan(page, plan('write_total'));
  await expect(page.getByText('This step cannot be read from the text as it is; fix the text first.')).toHaveCount(0);
  await expect(step).toHaveValue('');
  await page.locator('.cm-line', { hasText: 'block: report.write' }).click();
  await expect(step).toHaveValue('write_total');
});

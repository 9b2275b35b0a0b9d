// The studio end to end, as a person uses it, against `planwright serve` (see studio.ts).
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EXCEL_PLAN, REPORT_PLAN } from './plans';
import { test, expect, typePlan } from './studio';


// Two column mistakes against the workspace's data/invoices.csv: `取引` (the file says 取引先), and
// 金額 after the group that left it out.
const COLUMNS_PLAN = readFileSync(join(import.meta.dirname, 'fixtures', 'large_suppliers.yaml'), 'utf8');

// A plan that asks one question (Which month?) and then writes the answer.
const ASKS_PLAN = readFileSync(join(import.meta.dirname, 'fixtures', 'asks_month.yaml'), 'utf8');

const WAITS_PLAN = `apiVersion: planwright/v1
id: e2e_waits
version: 1.0.0
graph:
  - id: approve
    block: ui.confirmation
    in: {message: Wait here until stopped}
`;

const SECRET_PLAN = `apiVersion: planwright/v1
id: e2e_secret
version: 1.0.0
vars:
  base: null
secrets: [API_TOKEN]
graph:
  - id: call
    block: external.api.http
    in:
      url: "\${vars.base}/hook"
      headers: {Authorization: "Bearer \${secrets.API_TOKEN}"}
    out: {status: status}
`;


const FAILS_PLAN = `apiVersion: planwright/v1
id: e2e_fails
version: 1.0.0
graph:
  - id: call
    block: external.api.http
    in: {url: "http://127.0.0.1:9/nothing-listens-here"}
    out: {status: status}
`;

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

test('a finding appears at its line, and goes when the plan is fixed', async ({ page, studio }) => {
  void studio;
  await page.getByRole('tab', { name: 'Design' }).click();
  await typePlan(page, REPORT_PLAN.replace('block: report.write', 'block: report.writ'));
  await page.getByRole('button', { name: 'Validate' }).click();
  const finding = page.getByRole('list', { name: 'Checks' }).getByRole('button').first();
  await expect(finding).toContainText('report.writ');
  await expect(finding).toHaveAccessibleName(/line 6/i);
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();

  await typePlan(page, REPORT_PLAN);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('Nothing to fix: the plan is valid.')).toBeVisible();
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
});

test('the columns a step names are checked against the workspace file and the steps before it', async ({ page, studio }) => {
  void studio;
  await page.getByRole('tab', { name: 'Design' }).click();
  await typePlan(page, COLUMNS_PLAN);
  await page.getByRole('button', { name: 'Validate' }).click();
  const findings = page.getByRole('list', { name: 'Checks' });
  await expect(findings.getByRole('button')).toHaveCount(2);
  // The file's header offers the column meant; the group's output says which step left 金額 out.
  await expect(findings).toContainText('did you mean `取引先`?');
  await expect(findings).toContainText('step `totals` left it out');

  await typePlan(page, COLUMNS_PLAN.replace('by: [取引]', 'by: [取引先]').replace('{field: 金額, operator', '{field: 合計, operator'));
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('Nothing to fix: the plan is valid.')).toBeVisible();

  // In the inspector, a field that names a column offers the columns there are at that step.
  await page.locator('.cm-content').getByText('by: [取引先]').click();
  const inspector = page.getByRole('tabpanel');
  const by = inspector.getByRole('group', { name: 'by' }).getByRole('combobox');
  await expect(by).toHaveValue('取引先');
  const offered = await by.locator('option').allTextContents();
  expect(offered).toContain('取引先');
  expect(offered).toContain('金額');
  await page.locator('.cm-content').getByText('{field: 合計, operator').click();
  const field = inspector.getByRole('group', { name: 'conditions' }).getByLabel('field, row 1');
  await expect(field).toHaveValue('合計');
  expect(await field.locator('option').allTextContents(), 'after the group: its by columns and its total').toEqual(['—', '取引先', '合計']);
});

for (const [lang, words] of [
  ['en', { design: 'Design', start: 'Start a plan', register: 'Register', yaml: 'Or write the plan yourself in YAML', validate: 'Validate', valid: 'Nothing to fix: the plan is valid.', examples: 'Open an example', designs: 'Designs', newPlan: 'New plan', yes: 'Yes', template: /^Start from a template/, templateSearch: 'Search templates' }],
  ['ja', { design: '設計', start: 'プランを始める', register: '登録', yaml: 'YAML で自分でプランを書く', validate: '検証', valid: '確認事項はありません。プランは有効です。', examples: '例を開く', designs: '登録済みプラン', newPlan: '新しいプラン', yes: 'はい', template: /^テンプレートから始める/, templateSearch: 'テンプレートを検索' }],
] as const) {
  test.describe(`the first launch (${lang})`, () => {
    test.use({ locale: lang === 'ja' ? 'ja-JP' : 'en-US' });

    test('opens on a start page, never on a placeholder to register; writing YAML starts from a valid plan', async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: words.design }).click();
      await expect(page.getByRole('heading', { name: words.start })).toBeVisible();
      await expect(page.getByRole('button', { name: words.register })).toBeDisabled();
      await expect(page.locator('.status .badge')).toHaveCount(0);
      const examples = page.getByRole('list', { name: words.examples });
      await expect(examples.getByRole('button').first()).toBeVisible();

      await page.getByRole('button', { name: words.yaml }).click();
      await expect(page.getByRole('heading', { name: words.start })).toHaveCount(0);
      await page.getByRole('button', { name: words.validate }).click();
      await expect(page.getByText(words.valid)).toBeVisible();

      // "New plan" is the start page again (the edits stay in the drafts).
      await page.getByRole('radio', { name: words.designs }).click();
      await page.getByRole('button', { name: words.newPlan }).click();
      await page.getByRole('dialog').getByRole('button', { name: words.yes }).click();
      await expect(page.getByRole('heading', { name: words.start })).toBeVisible();
      await expect(page.getByRole('button', { name: words.register })).toBeDisabled();
    });

    test('the template gallery opens from the start page', async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: words.design }).click();
      await page.getByRole('button', { name: words.template }).click();
      await expect(page.getByRole('searchbox', { name: words.templateSearch })).toBeFocused();
    });

    test('an example opens from the start page', async ({ page, studio }) => {
      void studio;
      await page.getByRole('tab', { name: words.design }).click();
      await page.getByRole('list', { name: words.examples }).getByRole('button', { name: /^qa_expense_app_regression/ }).click();
      await expect(page.locator('.cm-content')).toContainText('id: qa_expense_app_regression');
      await expect(page.getByRole('button', { name: words.register })).toBeEnabled();
    });
  });
}

test('a registered plan appears in the designs list', async ({ page, studio }) => {
  void studio;
  await page.getByRole('tab', { name: 'Design' }).click();
  await typePlan(page, REPORT_PLAN);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText(/Registered as e2e_report_\d{12}\.yaml/)).toBeVisible();
  await page.getByRole('radio', { name: 'Designs' }).click();
  await expect(page.getByRole('list', { name: 'Designs' })).toContainText('e2e_report');
});

test('the editor says whether the plan is a draft, registered or changed, and drafts are named after the plan', async ({ page, studio }) => {
  void studio;
  await page.getByRole('tab', { name: 'Design' }).click();
  const toolbar = page.getByRole('region', { name: 'Plan editor' });
  await typePlan(page, REPORT_PLAN);
  await expect(toolbar.getByText('Draft', { exact: true })).toBeVisible();
  await page.getByRole('radio', { name: 'Designs' }).click();
  // The untitled draft took the plan's id as its name.
  await expect(page.getByRole('list', { name: 'Drafts' })).toContainText('e2e_report.yaml');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText(/Registered as e2e_report_\d{12}\.yaml/)).toBeVisible();
  await expect(toolbar.getByText('Registered', { exact: true })).toBeVisible();
  // Registered, the text is no draft any more, and nothing is "unsaved".
  await expect(page.getByRole('list', { name: 'Drafts' })).toHaveCount(0);
  await expect(toolbar).not.toContainText('Unsaved changes');
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('\n# a note\n');
  await expect(toolbar.getByText('Changed since registered')).toBeVisible();
  const drafts = page.getByRole('list', { name: 'Drafts' });
  await expect(drafts).toContainText('e2e_report.yaml');
  await drafts.getByRole('button', { name: 'Delete draft e2e_report.yaml' }).click();
  await expect(page.getByRole('list', { name: 'Drafts' })).toHaveCount(0);
});

const UNFINISHED_PLAN = `apiVersion: planwright/v1
id: e2e_inspect
version: 1.0.0
graph:
  - id: read
    block: file.read_csv
    in: {path: ""}
    out: {rows: rows}
  # Where the rows go
  - id: save
    block: report.write
    in: {data: "", path: out/rows.json}
`;

const FILTER_PLAN = `apiVersion: planwright/v1
id: e2e_filter
version: 1.0.0
graph:
  - id: read
    block: file.read_csv
    in: {path: data/sales.csv}
    out: {rows: rows}
  - id: keep
    block: transforms.filter
    in:
      items: "\${read.rows}"
      conditions: []
    out: {filtered: kept}
`;

test.describe('the node inspector', () => {
  test.use({ plans: { 'e2e_inspect.yaml': UNFINISHED_PLAN, 'e2e_filter.yaml': FILTER_PLAN } });

  test('follows the editor cursor, previews a chosen value and edits a list of conditions as a table', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: 'Design' }).click();
    await page.getByRole('radio', { name: 'Designs' }).click();
    await page.getByRole('button', { name: 'Open e2e_filter.yaml' }).click();
    const editor = page.locator('.cm-content');
    await expect(editor).toContainText('id: e2e_filter');

    // A click in the text of a node opens that node in the inspector.
    await editor.getByText('conditions: []').click();
    const inspector = page.getByRole('tabpanel');
    await expect(inspector.getByRole('heading', { name: /Filter rows by conditions/ })).toBeVisible();
    // The value it reads, with a sample from the dry-run.
    await expect(inspector.getByLabel('Where items comes from')).toHaveValue('${read.rows}');
    await expect(inspector.getByText(/^Sample: \[/)).toBeVisible();

    // The conditions as a table: a row per condition, the operator chosen from its list.
    const conditions = inspector.getByRole('group', { name: 'conditions' });
    await conditions.getByRole('button', { name: 'Add row' }).click();
    await conditions.getByLabel('field, row 1').fill('amount');
    await conditions.getByLabel('operator, row 1').selectOption('gt');
    await conditions.getByLabel('value, row 1').fill('100');
    await conditions.getByLabel('value, row 1').press('Tab');
    await expect(editor).toContainText('field: amount');
    await expect(editor).toContainText('value: 100');
    // The same value as JSON, for what a table cannot hold, and back.
    await inspector.getByRole('button', { name: 'Edit as JSON' }).click();
    await expect(inspector.getByLabel('conditions', { exact: true })).toHaveValue(/"operator": "gt"/);
    await inspector.getByRole('button', { name: 'Edit as a table' }).click();
    await conditions.getByRole('button', { name: 'Remove row 1' }).click();
    await expect(editor).not.toContainText('field: amount');
    // One document: the editor's undo brings the removed row back.
    await editor.click();
    await page.keyboard.press('Control+Z');
    await expect(editor).toContainText('field: amount');

    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('tab', { name: /Checks/ }).click();
    await expect(page.getByText('Nothing to fix: the plan is valid.')).toBeVisible();
  });

  test('edits a node to a valid plan without writing YAML, and the editor keeps the rest', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: 'Design' }).click();
    await page.getByRole('radio', { name: 'Designs' }).click();
    await page.getByRole('button', { name: 'Open e2e_inspect.yaml' }).click();
    const editor = page.locator('.cm-content');
    await expect(editor).toContainText('id: e2e_inspect');
    await expect(page.getByText(/error/).first()).toBeVisible();

    // The first node, from the graph.
    await page.getByRole('img', { name: 'Graph' }).getByRole('button', { name: /^read/ }).click();
    const inspector = page.getByRole('tabpanel');
    await expect(inspector.getByRole('heading', { name: /Read a CSV file/i })).toBeVisible();
    await inspector.getByLabel('path', { exact: true }).fill('data/sales.csv');
    await inspector.getByLabel('path', { exact: true }).press('Tab');
    await expect(editor).toContainText('path: data/sales.csv');

    // The second, chosen in the inspector: its data comes from the first node's rows; a value
    // of a type that does not fit is offered but refused.
    await inspector.getByLabel('Step to edit').selectOption('save');
    const source = inspector.getByLabel('Where data comes from');
    await source.selectOption('${read.rows}');
    await expect(editor).toContainText('data: "${read.rows}"');
    await expect(inspector.getByLabel('Where path comes from').locator('option', { hasText: '${read.rows}' })).toBeDisabled();

    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('tab', { name: /Checks/ })).toBeVisible();
    await page.getByRole('tab', { name: /Checks/ }).click();
    await expect(page.getByText('Nothing to fix: the plan is valid.')).toBeVisible();
    // The comment and the untouched lines are as they were written.
    await expect(editor).toContainText('# Where the rows go');
    await expect(editor).toContainText('path: out/rows.json');
    // One document: the editor's undo takes back the inspector's last change.
    await editor.click();
    await page.keyboard.press('Control+Z');
    await expect(editor).toContainText('data: ""');
  });
});

// The system's opener as a person's desktop has it (`xdg-open` on Linux), replaced by one that
// notes what it was asked to open.
const opener = mkdtempSync(join(tmpdir(), 'planwright-opener-'));
writeFileSync(join(opener, 'xdg-open'), '#!/bin/sh\nprintf \'%s\\n\' "$1" >> "$(dirname "$0")/opened.log"\n');
chmodSync(join(opener, 'xdg-open'), 0o755);

test.describe('a file a run wrote', () => {
  test.use({ plans: { 'e2e_excel.yaml': EXCEL_PLAN }, serveEnv: { PATH: `${opener}:${process.env.PATH ?? ''}` } });

  test('opens with the system application, and its folder opens in the file manager', async ({ page, studio }) => {
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByLabel('Choose a registered plan').selectOption({ label: 'e2e_excel (e2e_excel.yaml)' });
    await page.getByRole('button', { name: 'Start' }).click();
    const results = page.getByRole('region', { name: 'Results' });
    await expect(results.getByRole('button', { name: 'unpaid.xlsx' })).toBeVisible();
    const log = join(opener, 'opened.log');
    await results.getByRole('button', { name: 'Open', exact: true }).click();
    await expect.poll(() => (existsSync(log) ? readFileSync(log, 'utf8') : '')).toContain(join(studio.workspace, 'out', 'unpaid.xlsx'));
    await results.getByRole('button', { name: 'Show in folder' }).click();
    await expect.poll(() => readFileSync(log, 'utf8').trim().split('\n')).toEqual([join(studio.workspace, 'out', 'unpaid.xlsx'), join(studio.workspace, 'out')]);
  });
});

test.describe('opening a design', () => {
  test.use({ plans: { 'e2e_report.yaml': REPORT_PLAN } });

  test('is not an edit, and undo never brings back the text before it', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: 'Design' }).click();
    const editor = page.locator('.cm-content');
    await expect(page.getByRole('heading', { name: 'Start a plan' })).toBeVisible();
    await page.getByRole('radio', { name: 'Designs' }).click();
    await page.getByRole('button', { name: 'Open e2e_report.yaml' }).click();
    await expect(editor).toContainText('id: e2e_report');
    await expect(page.getByText(/Draft saved/)).toHaveCount(0);
    await editor.click();
    await page.keyboard.press('Control+Z');
    await expect(editor).toContainText('id: e2e_report');
    await expect(page.getByRole('heading', { name: 'Start a plan' })).toHaveCount(0);
  });
});

test.describe('runs', () => {
  test.use({ plans: { 'e2e_report.yaml': REPORT_PLAN, 'e2e_asks.yaml': ASKS_PLAN, 'e2e_waits.yaml': WAITS_PLAN, 'e2e_secret.yaml': SECRET_PLAN, 'e2e_excel.yaml': EXCEL_PLAN, 'e2e_fails.yaml': FAILS_PLAN } });

  test('a run shows its nodes live until they are done', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByLabel('Choose a registered plan').selectOption({ label: 'e2e_report (e2e_report.yaml)' });
    await page.getByRole('button', { name: 'Start' }).click();
    const save = page.getByRole('table', { name: 'Steps' }).locator('tr[data-node="save"]');
    await expect(save).toHaveAttribute('data-status', 'done');
    await expect(page.getByRole('status')).toContainText(/succeeded/i);
  });

  test('a plan that asks for input completes once the form is filled', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByLabel('Choose a registered plan').selectOption({ label: 'e2e_asks (e2e_asks.yaml)' });
    await page.getByRole('button', { name: 'Start' }).click();
    const form = page.getByRole('form', { name: /Input needed: ask/ });
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(form).toContainText('Required: fill in this field.');
    await form.getByLabel(/Month/).fill('2026-11');
    await form.getByRole('button', { name: 'Submit' }).click();
    const save = page.getByRole('table', { name: 'Steps' }).locator('tr[data-node="save"]');
    await expect(save).toHaveAttribute('data-status', 'done');
  });

  test('a run waits for its secret, starts once it is stored, and the secret is in no file', async ({ page, studio }) => {
    const CANARY = 'tok-e2e-canary-5b81';
    const headers: string[] = [];
    const hook = createServer((req, res) => {
      headers.push(String(req.headers.authorization ?? ''));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', ok));
    const port = (hook.address() as { port: number }).port;
    try {
      await page.getByRole('tab', { name: 'Run' }).click();
      await page.getByLabel('Choose a registered plan').selectOption({ label: 'e2e_secret (e2e_secret.yaml)' });
      const check = page.getByRole('group', { name: 'Before the run' });
      await expect(check).toContainText('Secret API_TOKEN is not set');
      await expect(check).toContainText('base needs a value');
      await expect(page.getByRole('button', { name: 'Start' })).toBeDisabled();
      await page.getByLabel('base', { exact: true }).fill(`http://127.0.0.1:${port}`);
      await expect(check).not.toContainText('base needs a value');
      await expect(page.getByRole('button', { name: 'Start' })).toBeDisabled();
      await page.getByLabel('Value of API_TOKEN').fill(CANARY);
      await check.getByRole('button', { name: 'Save' }).click();
      await expect(check).toContainText('stored in the key file');
      await expect(check).toContainText('Ready to start');
      await expect(page.getByLabel('Value of API_TOKEN')).toHaveCount(0);
      await page.getByRole('button', { name: 'Start' }).click();
      await expect(page.getByRole('table', { name: 'Steps' }).locator('tr[data-node="call"]')).toHaveAttribute('data-status', 'done');
      expect(headers).toEqual([`Bearer ${CANARY}`]);
      expect(await page.content()).not.toContain(CANARY);
      const root = dirname(studio.workspace);
      for (const file of filesUnder(root).filter((f) => !f.endsWith('keys.yaml'))) {
        expect(readFileSync(file, 'latin1').includes(CANARY), file).toBe(false);
      }
    } finally {
      hook.close();
    }
  });

  test('a finished run opens on its results, with its Excel output as a table', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByLabel('Choose a registered plan').selectOption({ label: 'e2e_excel (e2e_excel.yaml)' });
    await page.getByRole('button', { name: 'Start' }).click();
    const results = page.getByRole('region', { name: 'Results' });
    await expect(results).toBeVisible();
    await expect(results.getByRole('button', { name: 'unpaid.xlsx' })).toHaveAttribute('aria-expanded', 'true');
    const table = results.getByRole('table', { name: 'unpaid.xlsx' });
    await expect(table.getByRole('columnheader')).toHaveText(['Invoice', 'Customer', 'Amount']);
    await expect(table.getByRole('row').nth(2)).toContainText('Midori Planning');
    await expect(results).toContainText('Sheet: Unpaid');
    // The results come before the nodes.
    const resultsTop = (await results.boundingBox())!.y;
    const nodesTop = (await page.getByRole('table', { name: 'Steps' }).boundingBox())!.y;
    expect(resultsTop).toBeLessThan(nodesTop);
  });

  test('a run started from the command line that waits for input is resumed and answered here', async ({ page, studio }) => {
    const home = join(dirname(studio.workspace), 'home');
    const binary = process.env.PLANWRIGHT_BIN ?? join(import.meta.dirname, '..', '..', 'target', 'debug', 'planwright');
    const cli = spawnSync(binary, ['run', join(studio.workspace, 'designs', 'e2e_asks.yaml'), '--workdir', studio.workspace], {
      env: { ...process.env, PLANWRIGHT_HOME: home, PLANWRIGHT_KEYRING: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(cli.status, String(cli.stderr)).toBe(3);
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByRole('button', { name: /^Open run / }).first().click();
    const status = page.getByRole('region', { name: 'Run', exact: true }).getByRole('status');
    await expect(status).toContainText(/waiting/i);
    await page.getByRole('button', { name: 'Resume' }).click();
    const form = page.getByRole('form', { name: /Input needed: ask/ });
    await form.getByLabel(/Month/).fill('2026-11');
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('table', { name: 'Steps' }).locator('tr[data-node="save"]')).toHaveAttribute('data-status', 'done');
    await expect(status).toContainText(/succeeded/i);
    await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Run again' })).toBeVisible();
  });

  test('a failed node says why at the node, and opens in Design at that node', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByLabel('Choose a registered plan').selectOption({ label: 'e2e_fails (e2e_fails.yaml)' });
    await page.getByRole('button', { name: 'Start' }).click();
    const row = page.getByRole('table', { name: 'Steps' }).locator('tr[data-node="call"]');
    await expect(row).toHaveAttribute('data-status', 'failed');
    await expect(row.locator('.why')).toContainText('127.0.0.1:9');
    await row.getByRole('button', { name: 'call' }).click();
    // The node's own button (the run's header offers it too, at the first failed node).
    await page.locator('.node-detail').getByRole('button', { name: 'Fix in Design' }).click();
    await expect(page.getByRole('tab', { name: 'Design' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('.cm-content')).toContainText('id: e2e_fails');
    await expect(page.getByLabel('Step to edit')).toHaveValue('call');
  });

  test('a run interrupted from the command line is resumed here, keeping what it had done', async ({ page, studio }) => {
    // A server that holds the first request of `slow` until the command line is killed, then answers.
    let hold = true;
    const calls: string[] = [];
    const server = createServer((req, res) => {
      calls.push(req.url ?? '');
      if (req.url === '/slow' && hold) return; // never answered: the run is killed meanwhile
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const plan = join(studio.workspace, 'designs', 'e2e_interrupted.yaml');
    writeFileSync(
      plan,
      `apiVersion: planwright/v1\nid: e2e_interrupted\nversion: 1.0.0\ngraph:\n  - id: fast\n    block: external.api.http\n    in: {url: "${base}/fast"}\n    out: {status: status}\n  - id: slow\n    block: external.api.http\n    after: [fast]\n    in: {url: "${base}/slow"}\n    out: {status: status}\n`,
    );
    try {
      const home = join(dirname(studio.workspace), 'home');
      const binary = process.env.PLANWRIGHT_BIN ?? join(import.meta.dirname, '..', '..', 'target', 'debug', 'planwright');
      const cli = spawn(binary, ['run', plan, '--workdir', studio.workspace], { env: { ...process.env, PLANWRIGHT_HOME: home, PLANWRIGHT_KEYRING: 'off' }, stdio: 'ignore' });
      await expect.poll(() => calls.includes('/slow'), { timeout: 20_000 }).toBe(true);
      cli.kill('SIGKILL');
      await new Promise((ok) => cli.once('exit', ok));
      hold = false;

      await page.getByRole('tab', { name: 'Run' }).click();
      await page.getByRole('button', { name: /^Open run / }).first().click();
      const status = page.getByRole('region', { name: 'Run', exact: true }).getByRole('status');
      await expect(status).toContainText(/interrupted/i);
      await page.getByRole('button', { name: 'Resume' }).click();
      await expect(status).toContainText(/succeeded/i);
      // `fast` finished before the interruption and was not run again.
      expect(calls.filter((c) => c === '/fast')).toHaveLength(1);
      expect(calls.filter((c) => c === '/slow')).toHaveLength(2);
    } finally {
      server.close();
    }
  });

  test('a running plan stops', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByLabel('Choose a registered plan').selectOption({ label: 'e2e_waits (e2e_waits.yaml)' });
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('form', { name: /Input needed: approve/ })).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByRole('status')).toContainText(/stopped/i);
  });
});

test.describe('in Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test('Design → Run: findings in Japanese, then the registered plan runs and opens on its results', async ({ page, studio }) => {
    void studio;
    await page.getByRole('tab', { name: '設計' }).click();
    await typePlan(page, REPORT_PLAN.replace('id: e2e_report', 'id: e2e_ja').replace('block: report.write', 'block: report.writ'));
    await page.getByRole('button', { name: '検証' }).click();
    const findings = page.getByRole('list', { name: '確認事項' });
    await expect(findings).toContainText('カタログにないブロックです');
    // The details stay, in English, for the specifics.
    await expect(findings).toContainText('report.writ');

    await typePlan(page, REPORT_PLAN.replace('id: e2e_report', 'id: e2e_ja'));
    await page.getByRole('button', { name: '検証' }).click();
    await expect(page.getByText('確認事項はありません。プランは有効です。')).toBeVisible();
    await page.getByRole('button', { name: '登録' }).click();
    await expect(page.getByText(/e2e_ja_\d{12}\.yaml として登録しました/)).toBeVisible();

    await page.getByRole('tab', { name: '実行' }).click();
    const choose = page.getByLabel('登録済みのプランを選択');
    const file = await choose.locator('option', { hasText: /^e2e_ja / }).getAttribute('value');
    await choose.selectOption(file!);
    await expect(page.getByText('開始できます')).toBeVisible();
    await page.getByRole('button', { name: '開始' }).click();
    await expect(page.getByRole('region', { name: '実行', exact: true }).getByRole('status')).toHaveText('成功');
    await expect(page.getByRole('region', { name: '結果' })).toContainText('hello.json');
  });
});

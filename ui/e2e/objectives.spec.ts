// The live objective view end to end: runs of `browser.run_objectives` against the fixture sites
// (sites.ts) from the Run tab of `planwright serve`, in Debian's Chromium — objectives reaching
// completed live with a recovery step under its parent, an escalation answered from its form,
// and a run stopped mid-objective.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './sites';

const PORTAL_PLAN = `apiVersion: planwright/v1
id: e2e_portal
version: 1.0.0
vars:
  portal_url: http://127.0.0.1:9/objectives/portal/login.html
secrets: [PORTAL_USER, PORTAL_PASSWORD]
graph:
  - id: download_statement
    block: browser.run_objectives
    in:
      start_url: \${vars.portal_url}
      steps: |
        1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}
        2. Open the Statements page
        3. Download the October 2026 statement
`;

/** Objective 2 cannot pass as written: one pass and no revision, so the person is asked soon. */
const SHOP_PLAN = `apiVersion: planwright/v1
id: e2e_shop
version: 1.0.0
vars:
  shop_url: http://127.0.0.1:9/objectives/shop/search.html?instant=1
graph:
  - id: export
    block: browser.run_objectives
    in:
      start_url: \${vars.shop_url}
      steps: |
        1. Search for widget
        2. Click the Export button
      max_iterations: 1
      max_revisions: 0
    out: {passed: export_passed}
  - id: save
    block: report.write
    in: {data: {passed: "\${export.export_passed}"}, format: json, path: out/export.json}
`;

/** The same objective with the planning's defaults: its revisions wait for the page (10 s). */
const SLOW_PLAN = `apiVersion: planwright/v1
id: e2e_slow
version: 1.0.0
vars:
  shop_url: http://127.0.0.1:9/objectives/shop/search.html?instant=1
graph:
  - id: export
    block: browser.run_objectives
    in:
      start_url: \${vars.shop_url}
      steps: |
        1. Search for widget
        2. Click the Export button
      on_unsatisfied: report
`;

async function startPlan(page: Page, label: string, vars: Record<string, string>) {
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByLabel('Choose a registered plan').selectOption({ label });
  for (const [name, value] of Object.entries(vars)) await page.getByLabel(name, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Start' }).click();
}

/** Records every state an objective of the page takes, in order, from now on. */
async function watchObjectives(page: Page) {
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    const note = (el: Element) => {
      const n = el.getAttribute('data-objective');
      const s = el.getAttribute('data-status');
      if (!n || !s) return;
      const list = (seen[n] ??= []);
      if (list[list.length - 1] !== s) list.push(s);
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes' && r.target instanceof Element) note(r.target);
        for (const added of r.addedNodes) {
          if (added instanceof Element) [added, ...added.querySelectorAll('[data-objective]')].forEach(note);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
}

const seenStates = (page: Page) => page.evaluate(() => (window as unknown as { __seen: Record<string, string[]> }).__seen);

test.describe('the live objective view', () => {
  test.use({
    plans: { 'e2e_portal.yaml': PORTAL_PLAN },
    serveEnv: { PLANWRIGHT_SECRET_PORTAL_USER: 'tk-suzuki', PLANWRIGHT_SECRET_PORTAL_PASSWORD: 'correct horse' },
  });

  test('objectives reach completed live, with the cookie banner closed as a recovery step under its objective', async ({ page, studio, sites }) => {
    void studio;
    await page.getByRole('tab', { name: 'Run' }).click();
    await watchObjectives(page);
    await startPlan(page, 'e2e_portal (e2e_portal.yaml)', { portal_url: `${sites.origin}/objectives/portal/login.html?instant=1` });

    const view = page.getByRole('region', { name: /download_statement/ });
    const list = view.getByRole('list', { name: 'Objectives of download_statement' });
    await expect(list.locator('> li')).toHaveCount(3);

    const objective = (n: number) => list.locator(`li[data-objective="${n}"]`);
    await expect(objective(1)).toHaveAttribute('data-status', 'completed');
    await expect(objective(3)).toHaveAttribute('data-status', 'completed', { timeout: 45_000 });
    const bar = view.getByRole('progressbar');
    await expect(bar).toHaveAttribute('aria-valuenow', '3');
    await expect(bar).toHaveAttribute('aria-valuemax', '3');
    await expect(view).toContainText('3/3');

    // Seen live: each objective was in progress before it was completed.
    const seen = await seenStates(page);
    for (const n of ['1', '2', '3']) {
      expect(seen[n], `objective ${n}`).toContain('in_progress');
      expect(seen[n]!.indexOf('in_progress'), `objective ${n}`).toBeLessThan(seen[n]!.lastIndexOf('completed'));
    }

    // The banner's recovery step sits inside the objective it got out of the way for (under
    // ?instant=1 the banner is there as the sign-in page opens).
    const recovery = objective(1).getByRole('list', { name: 'Recovery steps for objective 1' }).getByRole('listitem').first();
    await expect(recovery).toContainText('We value your privacy');
    await expect(recovery).toContainText('In the way: dialog "We value your privacy"');
    await expect(recovery).toHaveAttribute('data-status', 'completed');

    // Actions with their locator; evidence; a screenshot that opens in a dialog and closes with Esc.
    await expect(objective(1)).toContainText('Evidence:');
    await objective(1).locator(':scope > .main > details.actions > summary').click();
    await expect(objective(1).locator('code.locator').first()).toContainText('getByRole(');
    await expect(objective(1).getByRole('button', { name: 'Copy locator' }).first()).toBeVisible();
    const thumb = objective(1).getByRole('button', { name: /Enlarge the screenshot of objective 1/ });
    await expect(thumb.locator('img')).toBeVisible();
    await thumb.click();
    const dialog = page.getByRole('dialog', { name: /Screenshot of objective 1/ });
    await expect(dialog.locator('img')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(thumb).toBeFocused();

    // The planning history: the plan's main objective and success criteria.
    await expect(view.getByRole('region', { name: 'Planning history' })).toContainText('Plan made before acting');
    await expect(view.getByRole('region', { name: 'Planning history' })).toContainText('Success criteria');
    await expect(page.getByRole('status').first()).toContainText(/succeeded/i);

    // Its report, as a QA engineer attaches it to a ticket, and as test tools read it.
    const [html] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download report (HTML)' }).click()]);
    expect(html.suggestedFilename()).toMatch(/^e2e_portal_.*\.html$/);
    expect(readFileSync((await html.path())!, 'utf8')).toContain('Download the October 2026 statement');
    const [junit] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the JUnit report (XML)' }).click()]);
    expect(junit.suggestedFilename()).toMatch(/\.xml$/);
    expect(readFileSync((await junit.path())!, 'utf8')).toContain('<testcase');

    // A finished run replays the same view from its record.
    await page.reload();
    await expect(list.locator('> li')).toHaveCount(3);
    await expect(objective(3)).toHaveAttribute('data-status', 'completed');
    await expect(page.getByText('Recorded run')).toBeVisible();
    await expect(list.locator('ol[aria-label^="Recovery steps for objective"] > li').first()).toContainText('We value your privacy');

    // In the Japanese studio the runner's evidence is said in Japanese; the page's words stay as the page wrote them.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('tab', { name: '実行' }).click();
    const evidence = view.locator('li[data-objective="1"] > .main > p.evidence');
    await expect(evidence).toContainText('欄に {{PORTAL_USER}} が入っています');
    await expect(evidence).toContainText('を 1 回だけ押しました');
    await expect(evidence).not.toContainText(' holds ');
    await expect(view.locator('li[data-objective="3"] > .main > p.evidence')).toContainText(/[ぁ-んァ-ン]/);
    // And what each of its actions did.
    const actions = view.locator('li[data-objective="1"] > .main > details.actions');
    await actions.evaluate((d) => ((d as HTMLDetailsElement).open = true));
    await expect(actions.locator('.result').first()).toContainText('欄に {{PORTAL_USER}} が入っています');
    await expect(actions.locator('.result', { hasText: ' holds ' })).toHaveCount(0);
    // So is the plan in the planning history: its main objective, success criteria and evaluation.
    const history = view.getByRole('region', { name: '計画の履歴' });
    await expect(history).toContainText('（全 3 ステップ）');
    await expect(history).toContainText('目標 1：ログインが受け付けられ、次のページに進む');
    await expect(history).not.toContainText('objective_1');
    // And the report downloaded from the Japanese studio.
    const [japanese] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'レポートをダウンロード（HTML）' }).click()]);
    const report = readFileSync((await japanese.path())!, 'utf8');
    expect(report).toContain('<html lang="ja">');
    expect(report).toContain('<span class="label">根拠</span>');
    expect(report).toContain('欄に {{PORTAL_USER}} が入っています');
    expect(report).not.toContain('Why it failed');
  });
});

test.describe('an escalation', () => {
  test.use({ plans: { 'e2e_shop.yaml': SHOP_PLAN } });

  test('is answered from its form and the run goes on', async ({ page, studio, sites }) => {
    void studio;
    await startPlan(page, 'e2e_shop (e2e_shop.yaml)', { shop_url: `${sites.origin}/objectives/shop/search.html?instant=1` });

    const form = page.getByRole('form', { name: 'Your decision is needed: export' });
    await expect(form).toBeVisible({ timeout: 45_000 });
    await expect(form).toContainText('Click the Export button');
    await expect(form).toContainText('40%');
    const choices = form.getByRole('radiogroup', { name: 'How should it go on?' });
    await expect(choices.getByRole('radio', { name: /Accept the partial result/ })).toBeVisible();
    const offered = await choices.getByRole('radio').count();

    // Nothing chosen: the form says so.
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(form).toContainText('Choose how to go on.');

    // "More detail" needs the detail.
    await choices.getByRole('radio', { name: /Give more detail/ }).check();
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(form.getByRole('textbox', { name: /Your detail/ })).toBeFocused();
    await expect(form).toContainText('Required for “Give more detail”');

    // The technical analysis: written, then the person is asked again, without that choice.
    await choices.getByRole('radio', { name: /Write a technical analysis/ }).check();
    await form.getByRole('button', { name: 'Send' }).click();
    const again = page.getByRole('form', { name: 'Your decision is needed: export' });
    await expect(again.getByRole('button', { name: 'Read the technical analysis' })).toBeVisible();
    await expect(again.getByRole('radio')).toHaveCount(offered - 1);
    await expect(again.getByRole('radio', { name: /Write a technical analysis/ })).toHaveCount(0);
    await again.getByRole('button', { name: 'Read the technical analysis' }).click();
    const doc = page.getByRole('dialog', { name: 'Technical analysis' });
    await expect(doc.getByRole('heading', { name: /Technical analysis — node/ })).toBeVisible();
    await expect(doc).toContainText('What could be changed');
    await page.keyboard.press('Escape');
    await expect(doc).toBeHidden();

    // Keyboard: the radio group is operable with the arrow keys.
    await again.getByRole('radio').first().focus();
    await page.keyboard.press('ArrowDown');
    await expect(again.getByRole('radio').nth(1)).toBeChecked();
    await again.getByRole('radio', { name: /Accept the partial result/ }).check();
    await again.getByRole('button', { name: 'Send' }).click();

    const save = page.getByRole('table', { name: 'Steps' }).locator('tr[data-node="save"]');
    await expect(save).toHaveAttribute('data-status', 'done');
    // The run went on to its end, but a partial result is no pass.
    await expect(page.getByRole('status').first()).toHaveText('Finished, not passed');
    await expect(page.locator('section.objectives-view[data-node="export"] .badge.bad')).toHaveText('Not passed');
    await expect(again).toBeHidden();
    const history = page.getByRole('region', { name: 'Planning history' });
    await expect(history).toContainText('You chose: Write a technical analysis');
    await expect(history).toContainText('You chose: Accept the partial result');
    await expect(history).toContainText('Partial result accepted');
  });
});

test.describe('stopping', () => {
  test.use({ plans: { 'e2e_slow.yaml': SLOW_PLAN } });

  test('a run stopped mid-objective shows that objective interrupted, not done', async ({ page, studio, sites }) => {
    void studio;
    await startPlan(page, 'e2e_slow (e2e_slow.yaml)', { shop_url: `${sites.origin}/objectives/shop/search.html?instant=1` });
    const list = page.getByRole('list', { name: 'Objectives of export' });
    const second = list.locator('li[data-objective="2"]');
    // Its second attempt waits up to 10 s for the page: stop then.
    await expect(second.getByText('Waited for the page')).toBeVisible({ timeout: 45_000 });
    await expect(second).toHaveAttribute('data-status', 'in_progress');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByRole('status').first()).toContainText(/stopped/i);
    await expect(second).toHaveAttribute('data-status', 'interrupted');
    await expect(second).toContainText('Interrupted');
    await expect(list.locator('li[data-objective="1"]')).toHaveAttribute('data-status', 'completed');
    await expect(page.getByRole('region', { name: /export/ }).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
  });
});

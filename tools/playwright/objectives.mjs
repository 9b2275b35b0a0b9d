#!/usr/bin/env node
// The hand-written floor of the objective runner's benchmark: every task of
// assets/sites/objectives/tasks.json and heldout.json carried out by a program that already knows every locator,
// every banner and dialog that will come, and where each value is. Each task gets a fresh
// browser context at its start URL; the server's event log is reset before it and checked after
// it against the task's `expect_events` (a subset match on `detail`; with `times`, exactly that
// many) and `expect_absent`, and the
// values it read against `expect_extracted`. Tasks expected to fail (`expect_passed: false`) are
// carried out up to the impossible point, which is checked (the button is not there, the text is
// not shown); they are ok when that holds and the server's state matches.
//
//   node tools/playwright/objectives.mjs http://127.0.0.1:PORT [--instant] [--only id,id]
//
// Prints one JSON line per task, {"id", "ok", "ms"} (plus "error" when not ok, and "retried" with
// the first error when a task was tried twice), where ms is the wall time from opening the start
// page to the last action done; exits 1 when a task is not ok.
import { readFile } from 'node:fs/promises';
import { launch } from './common.mjs';
import { scripts as familyScripts } from './objectives-families.mjs';
import { scripts as heldOutScripts } from './objectives-heldout.mjs';

const TIMEOUT = 10_000;
const TASKS = ['tasks.json', 'heldout.json'].map((name) => new URL(`../../assets/sites/objectives/${name}`, import.meta.url));
// A page records through fetch and may show what it did a moment before the event is in the
// log (a download, a page view): the state is read again for up to this long.
const STATE_WAIT_MS = 2000;

// What Playwright should do whenever an obstacle it knows of is on the page before an action:
// the choice that keeps the session and the person's privacy.
async function dismiss(page, dialog, button) {
  await page.addLocatorHandler(dialog, async (overlay) => {
    await overlay.getByRole('button', { name: button, exact: true }).click();
  });
}

// The value beside a label in a definition list: <dt>label</dt><dd>value</dd>.
async function definition(page, label) {
  const term = page.locator('dt').filter({ hasText: new RegExp(`^\\s*${label}\\s*$`) });
  return (await term.locator('xpath=following-sibling::dd[1]').textContent()).trim();
}

// Downloads by clicking `link` and waits until the file is saved.
async function download(page, link) {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  await file.path();
  return file.suggestedFilename();
}

async function portalStatement(page, task, month) {
  await dismiss(page, page.getByRole('dialog', { name: 'We value your privacy' }), 'Reject non-essential');
  await page.getByLabel('Username').fill(task.secrets.PORTAL_USER);
  await page.getByLabel('Password').fill(task.secrets.PORTAL_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statements' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: month, exact: true }) });
  await download(page, row.getByRole('link', { name: 'Download' }));
}

// Each task by id: (page, task, context) → { passed, extracted }; the task families added for
// effects done once and ordinary steps live in their own modules.
const scripts = {
  ...familyScripts,
  ...heldOutScripts,
  async portal_statement_download(page, task) {
    await portalStatement(page, task, 'October 2026');
  },

  async portal_august_statement(page, task) {
    await portalStatement(page, task, 'August 2026');
  },

  async shop_add_blue_widget(page) {
    await page.getByLabel('Search products').fill('widget');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const card = page.getByRole('article', { name: 'Blue widget' });
    await card.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('link', { name: 'Cart (1)' }).waitFor();
  },

  async shop_export_pdf_impossible(page) {
    await page.getByLabel('Search products').fill('green widget');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { name: '1 result for “green widget”' }).waitFor();
    // The impossible point: there is no such button, on this page or any other.
    const exports = await page.getByRole('button', { name: 'Export to PDF' }).count();
    return { passed: exports > 0 };
  },

  async news_subscribe_past_ad(page) {
    await dismiss(page, page.getByRole('dialog', { name: 'Special offer: 50% off' }), 'No thanks');
    await page.getByLabel('Email address').fill('dana.okafor@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('You are subscribed.').waitFor();
  },

  async delivery_book_slot(page) {
    await page.getByLabel('Delivery window').selectOption({ label: 'Tuesday 17 November, 8:00–12:00' });
    await page.getByRole('radio', { name: /^Reusable crates/ }).check();
    await page.getByRole('checkbox', { name: 'I agree to the delivery terms' }).check();
    await page.getByRole('button', { name: 'Book slot' }).click();
    await page.getByText('Your slot is booked').waitFor();
  },

  async orders_rows_after_delay(page) {
    await page.getByLabel('Customer').fill('Tailspin Toys');
    await page.getByRole('button', { name: 'Find orders' }).click();
    await page.getByRole('rowheader', { name: 'SO-20436' }).waitFor();
  },

  async order_note_totals(page) {
    return {
      extracted: { ORDER_TOTAL: await definition(page, 'Order total'), BALANCE_DUE: await definition(page, 'Balance due') },
    };
  },

  async dashboard_welcome_false_check(page) {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Figures as of 9:41 a.m.').waitFor();
    // The false check: the page does not say it.
    return { passed: (await page.getByText('Welcome back').count()) > 0 };
  },

  async settings_shadow_switches(page) {
    await page.getByRole('switch', { name: 'Email notifications' }).click();
    await page.getByText('Saved: Email notifications on.').waitFor();
    await page.getByRole('switch', { name: 'Weekly summary' }).click();
    await page.getByText('Saved: Weekly summary off.').waitFor();
  },

  async contact_form_in_iframe(page) {
    const form = page.locator('iframe[title="Contact form"]').contentFrame();
    await form.getByLabel('Your name').fill('Dana Okafor');
    await form.getByLabel('Message').fill('My October statement lists invoice NW-88416 twice. Please send a corrected copy.');
    await form.getByRole('button', { name: 'Send' }).click();
    await form.getByText('Thanks, Dana Okafor.').waitFor();
  },

  async help_center_new_tab(page, _task, context) {
    const [help] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Open the help center' }).click(),
    ]);
    await help.getByRole('button', { name: 'Contact support' }).click();
    await help.getByText('We have opened a support request.').waitFor();
  },

  async intranet_notice_session_dialog(page) {
    await dismiss(page, page.getByRole('alertdialog', { name: 'セッションの有効期限が近づいています' }), '延長する');
    await page.getByRole('link', { name: '年末年始の休業について' }).click();
    await page.getByRole('heading', { name: '年末年始の休業について' }).waitFor();
    return { extracted: { HOLIDAY_PERIOD: await definition(page, '休業期間') } };
  },

  async supplier_ja_statement_csv(page, task) {
    await dismiss(page, page.getByRole('dialog', { name: 'システムメンテナンスのお知らせ' }), '閉じる');
    await page.getByLabel('ユーザーID').fill(task.secrets.SUPPLIER_PORTAL_USER);
    await page.getByLabel('パスワード').fill(task.secrets.SUPPLIER_PORTAL_PASSWORD);
    await page.getByRole('button', { name: 'ログイン' }).click();
    await page.getByRole('navigation', { name: 'メニュー' }).getByRole('link', { name: '取引明細' }).click();
    await page.getByLabel('対象月').selectOption({ label: '2024年4月' });
    await page.getByRole('button', { name: '表示' }).click();
    await page.getByRole('table', { name: '取引明細' }).getByRole('cell', { name: 'D-24419' }).waitFor();
    await download(page, page.getByRole('link', { name: 'CSVダウンロード' }));
  },

  async expense_tc01_login_dashboard(page, task) {
    await page.getByLabel('ユーザーID').fill(task.secrets.QA_USER);
    await page.getByLabel('パスワード').fill(task.secrets.QA_PASSWORD);
    await page.getByRole('button', { name: 'ログイン' }).click();
    await page.getByRole('heading', { name: 'ようこそ', exact: true }).waitFor();
    const menu = page.getByRole('navigation', { name: 'メニュー' });
    const items = [await menu.getByRole('link', { name: '経費申請' }).count(), await menu.getByRole('link', { name: '申請履歴' }).count()];
    return { passed: items.every((count) => count === 1) };
  },

  async expense_tc02_draft_saved(page) {
    await page.getByLabel('種別').selectOption({ label: '交通費' });
    await page.getByLabel('日付').fill('2024-04-15');
    await page.getByLabel('金額').fill('1,280');
    await page.getByLabel('摘要').fill('新宿→品川 往復');
    await page.getByRole('button', { name: '下書き保存' }).click();
    await page.getByText('下書きを保存しました').waitFor();
  },

  async expense_tc03_empty_amount(page) {
    await page.getByLabel('種別').selectOption({ label: '交通費' });
    await page.getByRole('button', { name: '申請する' }).click();
    await page.locator('#amount-error').getByText('金額を入力してください').waitFor();
  },

  async expense_tc04_submit_draft(page) {
    await page.getByRole('link', { name: 'プリンタートナー' }).click();
    await page.getByRole('button', { name: '申請する' }).click();
    await page.getByRole('dialog', { name: '申請の確認' }).getByRole('button', { name: 'OK' }).click();
    const row = page.getByRole('row').filter({ hasText: 'EXP-0423' });
    await row.getByText('承認待ち').waitFor();
  },
};

// `detail` holds every key of `subset` with an equal value (objects compared the same way).
function contains(detail, subset) {
  if (subset === null || typeof subset !== 'object') return detail === subset;
  if (detail === null || typeof detail !== 'object') return false;
  return Object.entries(subset).every(([key, value]) => contains(detail[key], value));
}

// What is wrong with the server's state for this task, or null. Each expected event must match a
// different recorded one (two expected `setting` events need two recorded).
function stateProblem(task, events) {
  const unused = [...events];
  for (const expected of task.expect_events || []) {
    const matches = (event) => event.action === expected.action && contains(event.detail, expected.detail || {});
    const index = unused.findIndex(matches);
    if (index < 0) return `missing event ${JSON.stringify(expected)}`;
    unused.splice(index, 1);
    const found = events.filter(matches).length;
    if (expected.times !== undefined && found !== expected.times) {
      return `event ${JSON.stringify(expected)} recorded ${found} times, expected ${expected.times}`;
    }
  }
  for (const action of task.expect_absent || []) {
    if (events.some((event) => event.action === action)) return `unexpected event ${action}`;
  }
  return null;
}

async function readState(base) {
  const response = await fetch(new URL('/__state', base));
  if (!response.ok) throw new Error(`GET /__state: HTTP ${response.status}`);
  return (await response.json()).events;
}

async function reset(base) {
  const response = await fetch(new URL('/__reset', base), { method: 'POST' });
  if (!response.ok) throw new Error(`POST /__reset: HTTP ${response.status}`);
}

function startUrl(base, start, instant) {
  const url = new URL(start, base);
  if (instant) url.searchParams.set('instant', '1');
  return url.href;
}

async function runTask(browser, base, task, instant) {
  const script = scripts[task.id];
  if (!script) return { ok: false, ms: 0, error: 'no script for this task' };
  await reset(base);
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 720 } });
  context.setDefaultTimeout(TIMEOUT);
  try {
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(startUrl(base, task.start, instant));
    const result = (await script(page, task, context)) || {};
    const ms = Math.round(performance.now() - started);
    const passed = result.passed ?? true;
    const extracted = result.extracted || {};

    let problem = null;
    if (passed !== task.expect_passed) problem = `passed ${passed}, expected ${task.expect_passed}`;
    for (const [name, value] of Object.entries(task.expect_extracted || {})) {
      if (!problem && extracted[name] !== value) problem = `${name} = ${JSON.stringify(extracted[name])}, expected ${JSON.stringify(value)}`;
    }
    if (!problem) {
      const deadline = performance.now() + STATE_WAIT_MS;
      for (;;) {
        problem = stateProblem(task, await readState(base));
        if (!problem || performance.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return problem ? { ok: false, ms, error: problem } : { ok: true, ms };
  } catch (err) {
    return { ok: false, ms: 0, error: String(err && err.message ? err.message : err).split('\n')[0] };
  } finally {
    await context.close();
  }
}

async function main(argv) {
  const base = argv.find((arg) => !arg.startsWith('--'));
  const instant = argv.includes('--instant');
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] || '').split(',')) : null;
  if (!base || !/^https?:\/\//.test(base)) {
    throw new Error('usage: node tools/playwright/objectives.mjs http://127.0.0.1:PORT [--instant] [--only id,id]');
  }
  const lists = await Promise.all(TASKS.map(async (file) => JSON.parse(await readFile(file, 'utf8'))));
  const tasks = lists.flat().filter((task) => !only || only.has(task.id));
  const browser = await launch();
  let failed = 0;
  try {
    for (const task of tasks) {
      // The reference is the floor of what a script can do: a Playwright step that timed out on a
      // loaded machine is tried once more from a fresh context (and says so), not counted as the
      // task being impossible.
      let result = await runTask(browser, base, task, instant);
      if (!result.ok) result = { ...(await runTask(browser, base, task, instant)), retried: result.error };
      if (!result.ok) failed++;
      process.stdout.write(JSON.stringify({ id: task.id, ...result }) + '\n');
    }
  } finally {
    await browser.close();
  }
  process.stderr.write(`objectives: ${tasks.length - failed}/${tasks.length} ok${instant ? ' (--instant)' : ''}\n`);
  return failed === 0;
}

main(process.argv.slice(2)).then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    process.stderr.write(`objectives: ${err && err.message ? err.message : err}\n`);
    process.exit(1);
  },
);

#!/usr/bin/env node
// Walks every fixture page the way a user would, with Playwright as the reference driver and the
// pages' real delays (no ?instant=1). The sites' own tests run it and then check what the server
// recorded, so a page that stops recording, or records the wrong thing, fails there.
//
//   node tools/playwright/flows.mjs --base URL
//
// Prints { "<flow>": "ok" | {…observations}, … }; a flow that fails stops the run (exit 1).
import { launch, run } from './common.mjs';

const TIMEOUT = 10_000;

const flows = {
  async login(page, url) {
    await page.goto(url('login.html'));
    await page.getByLabel('Username').fill('ada');
    await page.getByPlaceholder('Password').fill('secret123');
    await page.getByRole('checkbox', { name: 'Remember me' }).check();
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Welcome, ada' }).waitFor();
  },

  async search(page, url) {
    await page.goto(url('search.html'));
    const box = page.getByRole('combobox', { name: 'Search products' });
    await box.pressSequentially('key', { delay: 30 });
    await page.getByRole('option', { name: 'Mechanical keyboard' }).click();
    await page.getByRole('heading', { name: 'Results for “Mechanical keyboard”' }).waitFor();
    await box.fill('mouse');
    await page.getByRole('option', { name: 'Mouse pad XL' }).waitFor();
    await box.press('ArrowDown');
    await box.press('Enter');
    await page.getByRole('heading', { name: 'Results for “Mouse pad XL”' }).waitFor();
  },

  async cookies(page, url) {
    await page.goto(url('cookies.html'));
    await page.getByRole('button', { name: 'Accept all' }).click();
    await page.getByText('all cookies accepted').waitFor();
    await page.goto(url('cookies-shadow.html'));
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('optional cookies rejected').waitFor();
    await page.goto(url('cookies-iframe.html'));
    await page.locator('iframe[title="Cookie consent"]').contentFrame().getByRole('button', { name: 'Accept all' }).click();
    await page.getByText('all cookies accepted').waitFor();
  },

  async modal(page, url) {
    await page.goto(url('modal.html'));
    await page.getByRole('dialog', { name: 'Spring sale: 40% off' }).waitFor();
    const subscribe = page.getByRole('button', { name: 'Subscribe' });
    // Playwright refuses: the backdrop would receive the click.
    const refused = await subscribe.click({ timeout: 1000 }).then(() => false, () => true);
    // A blind click at the button's position lands on the backdrop.
    const box = await subscribe.boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByRole('button', { name: 'Close ad' }).click();
    await subscribe.click();
    await page.getByText('Thanks for subscribing').waitFor();
    return { click_refused_while_ad_open: refused };
  },

  async checkout(page, url) {
    await page.goto(url('checkout/cart.html'));
    await page.getByRole('button', { name: 'Proceed to checkout' }).click();
    await page.getByRole('heading', { name: 'Shipping' }).waitFor();
    await page.getByLabel('Country').selectOption({ label: 'Japan' });
    await page.getByRole('radio', { name: /Express/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').getByText('Accept the terms').waitFor();
    await page.getByRole('checkbox', { name: 'I agree to the terms and conditions' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    const card = page.locator('iframe[title="Secure card payment"]').contentFrame();
    await card.getByLabel('Card number').fill('4242 4242 4242 4242');
    await card.getByLabel('Expiry date (MM/YY)').fill('12/30');
    await card.getByLabel('Security code (CVC)').fill('123');
    await card.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Order confirmed' }).waitFor();
  },

  async table(page, url) {
    await page.goto(url('table.html'));
    await page.getByRole('button', { name: 'Load invoices' }).click();
    await page.getByRole('rowheader', { name: 'INV-1001' }).waitFor();
    for (const [button, first] of [['Next', 'INV-1009'], ['Next', 'INV-1017'], ['Previous', 'INV-1009']]) {
      await page.getByRole('button', { name: button }).click();
      await page.getByRole('rowheader', { name: first }).waitFor();
    }
    await page.getByText('Page 2 of 3').waitFor();
    await page.goto(url('invoices-ja.html'));
    await page.getByRole('button', { name: 'CSVをダウンロード' }).click();
    await page.getByText('CSVファイルを作成しました。').waitFor();
  },

  async shadow(page, url) {
    await page.goto(url('shadow.html'));
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Thanks! We sent a confirmation').waitFor();
  },

  async delayed(page, url) {
    await page.goto(url('delayed.html'));
    await page.getByRole('button', { name: 'Download report' }).click();
    await page.getByText('Download started').waitFor();
  },

  async products(page, url) {
    await page.goto(url('products.html'));
    await page.getByTestId('product-usb-c-hub').getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('button', { name: 'Buy now' }).click();
    await page.getByRole('link', { name: 'Cart (2)' }).waitFor();
  },

  async signup(page, url) {
    await page.goto(url('signup.html'));
    const create = page.getByRole('button', { name: 'Create account' });
    const disabledAtFirst = await create.isDisabled();
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Work email').fill('ada@example.com');
    await page.getByLabel('Start date').fill('2024-06-03');
    await page.getByLabel('Workspace color').fill('#ff8800');
    await page.getByLabel('Team size').fill('12');
    await create.click();
    await page.getByText('Workspace created for Ada Lovelace.').waitFor();
    return { disabled_until_valid: disabledAtFirst };
  },

  async dialogs(page, url) {
    await page.goto(url('confirm.html'));
    const seen = [];
    const answer = (respond) => page.once('dialog', (dialog) => { seen.push(dialog.type()); respond(dialog); });
    answer((dialog) => dialog.dismiss());
    await page.getByRole('button', { name: 'Delete item' }).click();
    await page.getByText('Deletion cancelled.').waitFor();
    answer((dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Delete item' }).click();
    await page.getByText('Item deleted.').waitFor();
    answer((dialog) => dialog.accept('Budget 2025.xlsx'));
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Budget 2025.xlsx' }).waitFor();
    answer((dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('checkbox', { name: 'Warn me before leaving this page' }).check();
    answer((dialog) => dialog.accept());
    await page.getByRole('link', { name: 'Leave this page' }).click();
    await page.getByRole('heading', { name: 'Fixture sites' }).waitFor();
    return { dialogs: seen };
  },

  async newtab(page, url) {
    await page.goto(url('newtab.html'));
    const opened = [];
    for (const [role, name] of [['link', 'Open the user guide in a new tab'], ['button', 'Open report window']]) {
      const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole(role, { name }).click()]);
      await tab.getByRole('heading', { name: 'User guide' }).waitFor();
      opened.push(new URL(tab.url()).search);
      await tab.close();
    }
    return { opened };
  },
};

run('flows', async (argv) => {
  if (argv[0] !== '--base' || !argv[1]) throw new Error('usage: node tools/playwright/flows.mjs --base URL');
  const base = argv[1].replace(/\/+$/, '') + '/';
  const url = (path) => new URL(path, base).href;
  const browser = await launch();
  try {
    const context = await browser.newContext();
    context.setDefaultTimeout(TIMEOUT);
    const page = await context.newPage();
    const results = {};
    for (const [name, flow] of Object.entries(flows)) {
      try {
        results[name] = (await flow(page, url)) || 'ok';
      } catch (err) {
        throw new Error(`flow ${name}: ${err.message}`);
      }
    }
    return results;
  } finally {
    await browser.close();
  }
});

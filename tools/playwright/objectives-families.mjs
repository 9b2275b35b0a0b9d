// The reference scripts of the task families added for effects done once and ordinary steps
// (tasks.json): each task by id, (page, task, context) → { passed, extracted }, as in
// objectives.mjs. Tasks that must fail are carried out up to their failing point, which is
// checked (the error is shown, the awaited text is not) before { passed: false }.

// The frame of `page` whose title is `title`.
const frame = (page, title) => page.locator(`iframe[title="${title}"]`).contentFrame();

// YYYY-MM-DD of `date` (local time, as the pages read it).
const iso = (date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

export const scripts = {
  async helpline_contact_frame_thanks(page) {
    const form = frame(page, 'Support request');
    await form.getByLabel('Name').fill('Priya Raman');
    await form.getByLabel('Email').fill('priya.raman@example.com');
    await form.getByLabel('How can we help?').fill('The CSV export on the Reports page has been empty since Monday.');
    await form.getByRole('button', { name: 'Send message' }).click();
    await form.getByText('Your message has been sent, Priya Raman.').waitFor();
  },

  async prefs_toast_only_save(page) {
    await page.getByRole('checkbox', { name: 'Email me a daily digest' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
  },

  async orders_lookup_unquoted_number(page) {
    await page.getByLabel('Order number').fill('1042');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('heading', { name: 'Order 1042' }).waitFor();
    return { passed: (await page.getByText('Shipped', { exact: true }).count()) === 1 };
  },

  async customers_not_found_alert(page) {
    await page.getByLabel('Customer ID').fill('88213');
    await page.getByRole('button', { name: 'Find' }).click();
    // The failing point: the page says there is no such customer, so no invoice to open.
    await page.getByRole('alert').getByText('No customer with that ID.').waitFor();
    return { passed: (await page.getByRole('link', { name: 'Latest invoice' }).count()) > 0 };
  },

  async checkout_card_declined(page) {
    await page.getByLabel('Name on card').fill('Lena Fischer');
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/29');
    await page.getByLabel('CVC').fill('314');
    await page.getByRole('button', { name: 'Pay €49.00' }).click();
    // The failing point: the server declined the card (402) and the page says so.
    await page.getByRole('alert').getByText('Card declined. Try another card or contact your bank.').waitFor();
    return { passed: false };
  },

  async claims_approve_row_by_name(page) {
    const row = page.getByRole('row').filter({ hasText: 'Sato' });
    await row.getByRole('button', { name: 'Approve' }).click();
    await row.getByText('Approved').waitFor();
  },

  async invoices_paginated_globex(page) {
    await page.getByRole('button', { name: 'Page 3' }).click();
    await page.getByText('Page 3 of 4').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Globex' });
    await row.getByRole('button', { name: 'Send reminder' }).click();
    await row.getByText('Reminder sent').waitFor();
  },

  async widgetshop_red_under_20(page) {
    await page.getByRole('searchbox', { name: 'Search products' }).fill('red widgets');
    await page.getByLabel('Max price (€)').fill('20');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Red widget twin pack').waitFor();
  },

  async visits_next_friday(page) {
    const today = new Date();
    const friday = new Date(today.getFullYear(), today.getMonth(), today.getDate() + (((5 - today.getDay() + 7) % 7) || 7));
    await page.getByRole('button', { name: 'Choose date' }).click();
    const calendar = page.getByRole('dialog', { name: 'Choose a date' });
    if (friday.getMonth() !== today.getMonth()) await calendar.getByRole('button', { name: 'Next month' }).click();
    const label = `Friday, ${friday.getDate()} ${friday.toLocaleString('en-GB', { month: 'long' })} ${friday.getFullYear()}`;
    await calendar.getByRole('button', { name: label, exact: true }).click();
    await page.getByLabel('Time').selectOption('14:00–16:00');
    await page.getByRole('button', { name: 'Book visit' }).click();
    await page.getByText(`Visit booked for Friday ${friday.getDate()}`).waitFor();
    if (iso(friday) < iso(today)) throw new Error('next Friday is before today');
  },

  async drills_click_one_then_two(page) {
    await page.getByRole('button', { name: 'ONE', exact: true }).click();
    await page.getByRole('button', { name: 'TWO', exact: true }).click();
  },

  async drills_expand_and_submit(page) {
    await page.getByRole('heading', { name: 'Section #1' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
  },

  async drills_select_checkboxes(page) {
    for (const name of ['C0ZWRz', 'vrD', 'YT0peP']) await page.getByRole('checkbox', { name, exact: true }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
  },

  async drills_menu_path(page) {
    await page.getByRole('menuitem', { name: /^Jinny/ }).click();
    await page.getByRole('menu', { name: 'Jinny' }).getByRole('menuitem', { name: 'Lynett' }).click();
  },

  async drills_third_textbox(page) {
    await page.getByRole('textbox').nth(2).fill('amber');
    await page.getByRole('button', { name: 'Submit' }).click();
  },

  async drills_ninth_result(page) {
    await page.getByRole('textbox').fill('Jerald');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: '3', exact: true }).click();
    await page.getByRole('listitem').nth(2).getByRole('link').click();
  },

  async drills_focus_textbox(page) {
    await page.getByRole('textbox').focus();
  },

  async drills_select_from_list(page) {
    await page.getByRole('combobox').selectOption('Nigeria');
    await page.getByRole('button', { name: 'Submit' }).click();
  },

  async drills_unlabelled_login(page) {
    await page.locator('#username').fill('kiera');
    await page.locator('#password').fill('8fHxq');
    await page.getByRole('button', { name: 'Login' }).click();
  },

  async drills_plain_click(page) {
    await page.getByRole('button', { name: 'Click Me!' }).click();
  },

  async drills_countdown_false_check(page) {
    await page.getByRole('textbox', { name: 'Code' }).fill('7F3K');
    await page.getByRole('button', { name: 'Verify' }).click();
    // The false check: nothing says the code was accepted, whatever the score panel does.
    await page.waitForFunction(() => document.getElementById('code').value === '');
    return { passed: (await page.getByText('Code accepted').count()) > 0 };
  },
};

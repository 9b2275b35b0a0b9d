// The reference scripts of the held-out tasks (heldout.json), written before the runner was tuned: each task by id, (page, task, context) → { passed, extracted },
// as in objectives.mjs.

// Picks `label` in a calendar popup (`dialog`) whose heading names the month shown, moving
// month by month with `previous` / `next` until `month` is shown.
async function pickInCalendar(dialog, { month, label, previous, next }) {
  const heading = dialog.getByRole('heading');
  for (let moves = 0; moves < 24 && (await heading.textContent()).trim() !== month; moves++) {
    const target = new Date(`1 ${month}`);
    const shown = new Date(`1 ${(await heading.textContent()).trim()}`);
    await dialog.getByRole('button', { name: shown < target ? next : previous }).click();
  }
  await dialog.getByRole('button', { name: label, exact: true }).click();
}

export const scripts = {
  async tally_invoice_due_date_picker(page) {
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Coho Winery' });
    await page.getByLabel('Amount (EUR)').fill('480');
    await page.getByRole('button', { name: 'Choose due date' }).click();
    await pickInCalendar(page.getByRole('dialog', { name: 'Choose due date' }), {
      month: 'January 2027',
      label: 'Friday 15 January 2027',
      previous: 'Previous month',
      next: 'Next month',
    });
    await page.getByRole('button', { name: 'Save invoice' }).click();
    await page.getByRole('status').filter({ hasText: 'Invoice INV-2207 saved' }).waitFor();
  },

  async tally_customer_second_suggestion(page) {
    await page.getByRole('combobox', { name: 'Search customers' }).pressSequentially('alp');
    await page.getByRole('listbox', { name: 'Customers' }).getByRole('option').nth(1).click();
    const card = page.getByRole('region', { name: 'Alpenglow Outfitters' });
    const balance = card.locator('dt', { hasText: 'Outstanding balance' }).locator('xpath=following-sibling::dd[1]');
    return { extracted: { BALANCE: (await balance.textContent()).trim() } };
  },

  async tally_invoice_not_found(page) {
    await page.getByPlaceholder('Invoice number').fill('7731');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('alert').getByText('No invoice found with number 7731.').waitFor();
    // The failing point: there is no such invoice, so nothing to mark as paid.
    return { passed: (await page.getByRole('row').filter({ hasText: 'INV-7731' }).count()) > 0 };
  },

  async tally_hover_menu_export_csv(page) {
    await page.getByRole('button', { name: 'Reports' }).hover();
    await page.getByRole('link', { name: 'Aged receivables' }).click();
    await page.getByRole('heading', { name: 'Aged receivables' }).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByText('Export started: aged-receivables-2026-11.csv').waitFor();
  },

  async tally_settings_collapsed_section_toast(page) {
    await page.getByRole('button', { name: 'Invoice emails' }).click();
    await page.getByLabel('Send me a copy of every invoice email').check();
    await page.getByLabel('Reply-to address').fill('accounts@tallyco.example');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();
  },

  async tripwise_approve_by_traveller_and_city(page) {
    const row = page.getByRole('row').filter({ hasText: 'Priya Shah' }).filter({ hasText: 'Berlin' });
    while ((await row.count()) === 0) await page.getByRole('button', { name: 'Next' }).click();
    await row.getByRole('button', { name: 'Approve' }).click();
    await row.getByRole('cell', { name: 'Approved' }).waitFor();
  },

  async tripwise_card_declined(page) {
    await page.getByLabel('Name on card').fill('Aiko Tanaka');
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('09/28');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay €60.00' }).click();
    await page.getByRole('alert').getByText('Card declined.').waitFor();
    // The failing point: the payment was not received.
    return { passed: await page.getByText('Payment received').isVisible() };
  },

  async tripwise_slow_advance_url_only(page) {
    await page.getByLabel('Trip').selectOption({ label: 'Osaka, 2–6 December 2026' });
    await page.getByLabel('Amount in euros').fill('300');
    await page.getByRole('button', { name: 'Request advance' }).click();
    await page.waitForURL(/requested=ADV-2291/);
  },

  async qa_click_the_button_countdown(page) {
    await page.getByRole('button').click();
  },

  async qa_text_field_and_three_boxes(page) {
    await page.getByRole('textbox').fill('QA-77');
    for (const name of ['XbT9q', 'mmR', 'Lo2Wz']) await page.getByRole('checkbox', { name, exact: true }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
  },
};

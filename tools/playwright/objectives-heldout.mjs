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
  async keihi_approve_yamada_in_frame(page) {
    const card = page.getByRole('listitem').filter({ hasText: '山田 花子' });
    await card.getByRole('button', { name: '承認', exact: true }).click();
    const frame = page.locator('iframe[title="承認の確認"]').contentFrame();
    await frame.getByRole('button', { name: '承認する' }).click();
    await frame.getByText('申請 K-2031 を承認しました。').waitFor();
  },

  async keihi_voucher_not_found(page) {
    await page.getByLabel('伝票番号').fill('8842');
    await page.getByRole('button', { name: '検索', exact: true }).click();
    await page.getByText('該当するデータはありません。').waitFor();
    // The failing point: no voucher was found, so there is none to open and cancel.
    return { passed: (await page.getByRole('link', { name: 'D-8842' }).count()) > 0 };
  },

  async keihi_transit_next_month_end(page) {
    const now = new Date();
    const end = new Date(now.getFullYear(), now.getMonth() + 2, 0);
    const weekday = ['日', '月', '火', '水', '木', '金', '土'][end.getDay()];
    await page.getByRole('button', { name: 'カレンダーを開く' }).click();
    const calendar = page.getByRole('dialog', { name: '日付の選択' });
    await calendar.getByRole('button', { name: '翌月' }).click();
    await calendar.getByRole('button', { name: `${end.getFullYear()}年${end.getMonth() + 1}月${end.getDate()}日（${weekday}）` }).click();
    await page.getByPlaceholder('出発駅').fill('東京');
    await page.getByPlaceholder('到着駅').fill('新大阪');
    await page.getByLabel('金額（円）').fill('14,720');
    await page.getByRole('button', { name: '登録', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '登録しました' }).waitFor();
  },

  async keihi_search_dept_second_result(page) {
    await page.getByRole('button', { name: '詳細条件' }).click();
    await page.getByLabel('部署').selectOption({ label: '営業部' });
    await page.getByRole('button', { name: '検索', exact: true }).click();
    const results = page.getByRole('table', { name: '検索結果' });
    await results.getByRole('row').nth(2).getByRole('link').click();
    await page.getByText('展示会 出展料（分担分）').waitFor();
    const amount = page.locator('dt', { hasText: '金額' }).locator('xpath=following-sibling::dd[1]');
    return { extracted: { AMOUNT: (await amount.textContent()).trim() } };
  },

  async keihi_amount_zero_validation(page) {
    await page.getByLabel('件名').fill('書籍購入');
    await page.getByLabel('金額').fill('0');
    await page.getByLabel('支払先').fill('丸善');
    await page.getByRole('button', { name: '申請', exact: true }).click();
    await page.locator('#amount-error').getByText('金額は1円以上で入力してください').waitFor();
  },

  async juhacchu_order_autocomplete_slow(page) {
    await page.getByRole('combobox', { name: '商品' }).pressSequentially('A-102');
    await page.getByRole('option').filter({ hasText: 'A-1020' }).click();
    await page.getByLabel('数量').fill('12');
    await page.getByRole('button', { name: '発注を確定する' }).click();
    await page.getByText('発注を受け付けました').waitFor();
  },

  async juhacchu_ship_by_customer_and_due(page) {
    const row = page.getByRole('row').filter({ hasText: '丸山工業' }).filter({ hasText: '2026/12/18' });
    while ((await row.count()) === 0) await page.getByRole('button', { name: '次へ' }).click();
    await row.getByRole('button', { name: '出荷済みにする' }).click();
    await row.getByRole('cell', { name: '出荷済み', exact: true }).waitFor();
  },

  async juhacchu_partner_hover_menu_url_only(page) {
    await page.getByText('マスタ管理').hover();
    await page.getByRole('link', { name: '取引先', exact: true }).click();
    await page.getByRole('link', { name: '新規登録' }).click();
    await page.getByLabel('取引先名', { exact: true }).fill('株式会社青葉商会');
    await page.getByLabel('電話番号').fill('03-5555-0142');
    await page.getByRole('button', { name: '登録', exact: true }).click();
    await page.waitForURL(/registered=T-0192/);
  },

  async juhacchu_cancel_shipped_refused(page) {
    await page.getByLabel('注文番号').fill('PO-3318');
    await page.getByRole('button', { name: '照会' }).click();
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('button', { name: 'この注文を取り消す' }).click();
    await page.getByRole('alert').getByText('出荷済みのため取り消しできません').waitFor();
    // The failing point: the order is still shipped, not cancelled.
    return { passed: (await page.getByText('注文を取り消しました。').count()) > 0 };
  },

  async juhacchu_recalc_clock_false_check(page) {
    await page.getByRole('button', { name: '在庫を再計算' }).click();
    // The false check: nothing says the recalculation finished.
    return { passed: (await page.getByText('再計算が完了しました').count()) > 0 };
  },
};

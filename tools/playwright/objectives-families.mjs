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

  async otoiawase_frame_sent(page) {
    const form = frame(page, 'お問い合わせフォーム');
    await form.getByLabel('お名前').fill('高橋 真理');
    await form.getByLabel('メールアドレス').fill('m.takahashi@example.jp');
    await form.getByLabel('お問い合わせの種類').selectOption('ご契約について');
    await form.getByLabel('お問い合わせ内容').fill('更新の手続きについて教えてください。');
    await form.getByRole('button', { name: '送信' }).click();
    await form.getByText('送信しました。').waitFor();
  },

  async gyomu_denpyo_not_found(page) {
    await page.getByLabel('伝票番号').fill('5531');
    await page.getByRole('button', { name: '検索' }).click();
    // 失敗する点：該当する伝票がないので、明細は開けない。
    await page.getByText('該当する伝票はありません。').waitFor();
    return { passed: (await page.getByRole('link', { name: '明細を開く' }).count()) > 0 };
  },

  async gyomu_approve_yamada(page) {
    const card = page.getByRole('listitem').filter({ hasText: '山田' });
    await card.getByRole('button', { name: '承認', exact: true }).click();
    await card.getByText('承認済み').waitFor();
  },

  async gyomu_toiawase_send(page) {
    await page.getByLabel('件名').fill('請求書の再発行について');
    await page.getByLabel('内容').fill('10月分の請求書を再発行してください。');
    await page.getByRole('button', { name: '送信する' }).click();
    await page.getByText('お問い合わせを受け付けました').waitFor();
  },

  async gyomu_yoyaku_end_of_next_month(page) {
    const today = new Date();
    await page.getByLabel('利用日').fill(iso(new Date(today.getFullYear(), today.getMonth() + 2, 0)));
    await page.getByLabel('会議室').selectOption('第2会議室');
    await page.getByLabel('時間帯').selectOption('13:00〜15:00');
    await page.getByRole('button', { name: '予約する' }).click();
    await page.getByText('の第2会議室を予約しました。').waitFor();
  },

  async gyomu_partner_autocomplete(page) {
    await page.getByRole('combobox', { name: '取引先' }).pressSequentially('さくら物流');
    await page.getByRole('option', { name: '株式会社さくら物流' }).click();
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('取引先を「株式会社さくら物流」に設定しました。').waitFor();
  },

  async gyomu_hover_menu(page) {
    const menu = page.getByRole('navigation', { name: '業務メニュー' });
    await menu.getByText('仕入', { exact: true }).hover();
    await menu.getByRole('link', { name: '発注一覧' }).click();
    await page.getByRole('heading', { name: '発注一覧' }).waitFor();
    return { passed: (await page.getByText('今月の発注は12件です。').count()) === 1 };
  },

  async gyomu_faq_collapsible(page) {
    await page.getByRole('button', { name: '請求書を再発行したい' }).click();
    await page.getByRole('button', { name: '再発行を依頼する' }).click();
    await page.getByText('再発行を受け付けました。').waitFor();
  },

  async gyomu_zaiko_two_values(page) {
    const row = page.getByRole('row').filter({ hasText: 'A-220' }).filter({ hasText: '大阪' });
    await row.getByRole('button', { name: '発注' }).click();
    await row.getByText('発注しました').waitFor();
  },

  async gyomu_touroku_url_only(page) {
    await page.getByLabel('電話番号').fill('03-5555-0123');
    await page.getByRole('button', { name: '変更を保存' }).click();
    await page.waitForURL(/[?&]saved=1/);
  },

  async gyomu_chumon_slow_answer(page) {
    await page.getByRole('button', { name: '注文を確定する' }).click();
    await page.getByText('注文を受け付けました。').waitFor();
  },

  async gyomu_kouza_validation(page) {
    await page.getByLabel('支店番号（3桁）').fill('123');
    const account = page.getByLabel('口座番号（7桁）');
    await account.fill('12345');
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('口座番号は7桁の数字で入力してください。').waitFor();
    if ((await account.getAttribute('aria-invalid')) !== 'true') throw new Error('the account number is not marked invalid');
    await account.fill('0012345');
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('振込先口座を登録しました。').waitFor();
  },

  async gyomu_settei_toast_only(page) {
    await page.getByRole('checkbox', { name: '週次レポートをメールで受け取る' }).check();
    await page.getByRole('button', { name: '設定を保存' }).click();
    await page.getByText('保存しました').waitFor();
  },

  async gyomu_shiharai_declined(page) {
    await page.getByLabel('カード番号').fill('4000 0000 0000 0002');
    await page.getByLabel('有効期限（月/年）').fill('11/28');
    await page.getByLabel('セキュリティコード').fill('271');
    await page.getByLabel('カード名義（ローマ字）').fill('TARO SUZUKI');
    await page.getByRole('button', { name: '支払う' }).click();
    // 失敗する点：カード会社が拒否し（402）、画面がそう言う。
    await page.getByRole('alert').getByText('このカードはご利用いただけません。').waitFor();
    return { passed: false };
  },

  async renshu_check_a_and_b(page) {
    await page.getByRole('checkbox', { name: 'A', exact: true }).check();
    await page.getByRole('checkbox', { name: 'B', exact: true }).check();
    await page.getByRole('button', { name: '送信' }).click();
    await page.getByText('送信しました（A・B）').waitFor();
  },

  async renshu_second_result(page) {
    await page.getByRole('searchbox', { name: 'キーワード' }).fill('請求書');
    await page.getByRole('button', { name: '検索' }).click();
    await page.getByRole('listitem').nth(1).getByRole('link').click();
    await page.getByText('を開きました').waitFor();
  },

  async renshu_select_japan(page) {
    await page.getByLabel('国・地域').selectOption('日本');
    await page.getByRole('button', { name: '決定' }).click();
    await page.getByText('決定しました').waitFor();
  },

  async renshu_third_input(page) {
    await page.getByRole('textbox').nth(2).fill('みかん');
    await page.getByRole('button', { name: '確定' }).click();
  },

  async renshu_plain_click(page) {
    await page.getByRole('button', { name: '押してください' }).click();
  },

  async renshu_menu_path(page) {
    await page.getByRole('menubar', { name: 'メインメニュー' }).getByRole('button', { name: '編集' }).click();
    await page.getByRole('menu', { name: '編集' }).getByRole('menuitem', { name: 'コピー', exact: true }).click();
    await page.getByText('「編集>コピー」を選びました').waitFor();
  },
  async rotating_banner_coupon_no_evidence(page) {
    await page.getByRole('button', { name: 'Apply coupon' }).click();
    // Nothing follows the click: the banner, the slides and the clock turn on their own.
    await page.waitForTimeout(2500);
    if ((await page.getByText(/discount/i).count()) > 0) throw new Error('a discount was shown');
    return { passed: false };
  },
  async rotating_banner_stock_checked(page) {
    await page.getByRole('button', { name: 'Check stock' }).click();
    await page.getByText('In stock: 4').waitFor();
  },
};

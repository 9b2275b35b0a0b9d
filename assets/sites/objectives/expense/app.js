// The expense app's shared code: the claims (kept in localStorage, so they last across the
// pages of one browser session; three sample claims on a first visit) and the header's user.
(function () {
  'use strict';
  const KEY = 'expense.claims';
  const SAMPLES = [
    { id: 'EXP-0412', date: '2024-04-02', kind: '交通費', amount: 1040, memo: '渋谷→横浜 客先訪問', status: '承認済み' },
    { id: 'EXP-0418', date: '2024-04-08', kind: '会議費', amount: 2200, memo: '打合せ用 飲料', status: '承認待ち' },
    { id: 'EXP-0423', date: '2024-04-11', kind: '消耗品費', amount: 8580, memo: 'プリンタートナー', status: '下書き' },
  ];

  function all() {
    const stored = localStorage.getItem(KEY);
    if (stored) {
      try { return JSON.parse(stored); } catch (err) { /* fall through to the samples */ }
    }
    localStorage.setItem(KEY, JSON.stringify(SAMPLES));
    return SAMPLES.map((claim) => ({ ...claim }));
  }

  function get(id) {
    return all().find((claim) => claim.id === id) || null;
  }

  // Adds or replaces a claim by id; a claim without one gets the next number.
  function save(claim) {
    const claims = all();
    if (!claim.id) {
      const last = Math.max(0, ...claims.map((c) => Number(c.id.slice(4))));
      claim.id = 'EXP-' + String(last + 1).padStart(4, '0');
    }
    const index = claims.findIndex((c) => c.id === claim.id);
    if (index >= 0) claims[index] = claim;
    else claims.push(claim);
    localStorage.setItem(KEY, JSON.stringify(claims));
    return claim;
  }

  // "1,280", "１２８０", "¥1280", "1280円" → 1280; empty → null; anything else → NaN.
  function parseAmount(text) {
    const plain = text
      .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
      .replace(/[,，¥￥円\s]/g, '');
    if (!plain) return null;
    return /^\d+$/.test(plain) ? Number(plain) : NaN;
  }

  const yen = (amount) => '¥' + Number(amount).toLocaleString('ja-JP');

  function showUser() {
    const user = sessionStorage.getItem('expense.user');
    const slot = document.getElementById('user');
    if (slot) slot.textContent = user ? user + ' さんとしてログインしています。' : '';
    const logout = document.getElementById('logout');
    if (logout) logout.addEventListener('click', () => sessionStorage.removeItem('expense.user'));
  }

  window.expense = { all, get, save, parseAmount, yen, showUser };
})();

// The vouchers of the 経費精算クラウド demo company, shared by the search and the voucher page.
window.VOUCHERS = [
  { no: 'D-8812', date: '2026-11-02', dept: '営業部', memo: '顧客接待 会食', amount: '¥18,700', state: '承認済み' },
  { no: 'D-8817', date: '2026-11-05', dept: '総務部', memo: '事務用品', amount: '¥2,915', state: '承認済み' },
  { no: 'D-8824', date: '2026-11-09', dept: '開発部', memo: 'クラウド利用料', amount: '¥33,000', state: '承認済み' },
  { no: 'D-8830', date: '2026-11-12', dept: '営業部', memo: '展示会 出展料（分担分）', amount: '¥12,640', state: '承認済み' },
  { no: 'D-8839', date: '2026-11-16', dept: '開発部', memo: '技術書籍', amount: '¥6,270', state: '承認待ち' },
  { no: 'D-8847', date: '2026-11-21', dept: '営業部', memo: 'タクシー代', amount: '¥3,260', state: '承認待ち' },
  { no: 'D-8851', date: '2026-11-24', dept: '総務部', memo: '備品購入', amount: '¥8,640', state: '承認待ち' },
];

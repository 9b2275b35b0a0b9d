// Instructions to start from, in the person's language: each one the offline designer turns
// into a valid plan.
import type { Lang } from '../i18n/messages';

export interface Example {
  title: string;
  instruction: string;
}

const EXAMPLES: Record<Lang, Example[]> = {
  en: [
    {
      title: 'Expenses over a limit',
      instruction: 'Read expenses.csv, keep the rows where amount is over 50000, and write them to large_expenses.csv.',
    },
    {
      title: 'Classify inquiries',
      instruction: 'Read inquiries.csv, classify each inquiry as billing, delivery or other with the model, and save the result as a report.',
    },
    {
      title: 'Unpaid invoices',
      instruction: 'Read invoices.xlsx and deposits.csv, match them by invoice number, list the invoices with no deposit, and ask a person to confirm before writing unpaid.csv.',
    },
  ],
  ja: [
    {
      title: '上限を超える経費',
      instruction: 'expenses.csv を読み込み、金額が50000円を超える行を抽出して large_expenses.csv に出力する',
    },
    {
      title: '問い合わせの分類',
      instruction: '問い合わせ.csv を読み込み、各問い合わせを請求・配送・その他にモデルで分類し、結果をレポートとして保存する',
    },
    {
      title: '未入金の請求',
      instruction: '請求一覧.xlsx と 入金.csv を請求番号で突き合わせ、入金のない請求を一覧にし、担当者の確認後に unpaid.csv に出力する',
    },
  ],
};

export function examples(lang: Lang): Example[] {
  return EXAMPLES[lang];
}

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, toApiError } from '../api/transport';
import type { Event as RunEvent } from '../api/types/Event';
import { replay } from '../run/reducer';
import { en } from './en';
import { paramsOf } from './messages';
import { ja } from './ja';
import type { EvidencePart } from '../api/types/EvidencePart';
import type { RunMessage } from '../api/types/RunMessage';
import { sayAll, sayApiError, sayCoded, sayEvidence, sayRun, sayWords } from './said';

/**
 * Every code of a generated message type (`ApiMessage`, `RunMessage`: ts-rs writes them from the
 * Rust enums, and `crates/api/tests/integration/typescript.rs` fails when they differ) with its parameters.
 */
function codesOf(type: 'ApiMessage' | 'RunMessage' | 'DesignNote'): Map<string, string[]> {
  const source = readFileSync(resolve(import.meta.dirname, `../api/types/${type}.ts`), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const codes = new Map<string, string[]>();
  for (const m of source.matchAll(/\{\s*"key":\s*"(\w+)"(?:,\s*"params":\s*\{([^{}]*)\})?\s*\}/g)) {
    codes.set(m[1]!, [...(m[2] ?? '').matchAll(/(\w+)\??:/g)].map((p) => p[1]!).sort());
  }
  return codes;
}

describe('coded messages in both languages', () => {
  const catalogs = { en: en as Record<string, string>, ja: ja as Record<string, string> };

  for (const [type, kind, least] of [
    ['ApiMessage', 'api', 50],
    ['RunMessage', 'run', 20],
    ['DesignNote', 'design', 15],
  ] as const) {
    it(`every ${type} code has a text in English and Japanese with its parameters`, () => {
      const codes = codesOf(type);
      expect(codes.size).toBeGreaterThanOrEqual(least);
      for (const [code, params] of codes) {
        const key = `${kind}.said.${code}`;
        expect(catalogs.en[key], key).toBeTruthy();
        expect(catalogs.ja[key], key).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
        expect(paramsOf(catalogs.en[key]!), `en ${key}`).toEqual(params);
        expect(paramsOf(catalogs.ja[key]!), `ja ${key}`).toEqual(params);
      }
      // And no text is left for a code that is gone.
      const texts = Object.keys(en).filter((k) => k.startsWith(`${kind}.said.`));
      expect(texts.sort()).toEqual([...codes.keys()].map((c) => `${kind}.said.${c}`).sort());
    });
  }
});

describe('saying a coded message', () => {
  it('says a design note in the studio\'s language, whatever the instruction\'s', () => {
    const settled = { key: 'year_settled', params: { month: 4, year: 2026 } };
    expect(sayCoded('en', 'design', settled)).toBe('April is April 2026, the only one in the data.');
    expect(sayCoded('ja', 'design', settled)).toBe('4月は2026年4月です（データにある4月はこの年だけです）。');
    const bound = { key: 'column_bound', params: { wanted: '取引先', column: 'vendor' } };
    expect(sayCoded('en', 'design', bound)).toBe('“取引先” is the column “vendor” in the data.');
  });

  it('says it in Japanese with its parameters', () => {
    expect(sayCoded('ja', 'run', { key: 'timed_out', params: { ms: 3000 } })).toBe(
      '3000 ms で時間切れになりました（ステップの timeout_ms）。処理は取り消されました。',
    );
    expect(sayRun('ja', 'it needs the outputs of `read`, which was skipped', { key: 'dependency_skipped', params: { dependency: 'read' } })).toBe(
      'スキップされた「read」の出力を使うため、実行しませんでした。',
    );
    expect(sayCoded('en', 'run', { key: 'failures_continued', params: { failed: 1 } })).toBe('1 node failed and the run continued past them.');
  });

  it('says log lines with choices in Japanese: counts, flags and the task loop\'s outcome', () => {
    expect(sayRun('ja', 'kept 3 of 10 rows', { key: 'rows_kept', params: { kept: 3, total: 10 } })).toBe('10 行のうち 3 行を残しました。');
    const acted = { action: 'click', element: 'button "送信"', url: 'https://x.test/', ms: 40, dialogs: 1, new_tab: true, still_busy: false };
    expect(sayRun('ja', 'click …', { key: 'browser_acted', params: acted })).toBe(
      'click button "送信" → https://x.test/（40 ms）・ダイアログ 1 件に応答・開いた新しいタブに移動',
    );
    const ended = { completed: 3, total: 3, outcome: 'satisfied', passes: 1, percent: 100, replayed: 2, model_calls: 0 };
    expect(sayRun('ja', '3/3 objectives …', { key: 'objectives_ended', params: ended })).toBe(
      '目標 3 件中 3 件を完了・1 回のパスで満たされました（100 %）・2 件をアクションキャッシュから再生・モデル呼び出しなし。',
    );
  });

  it('says a block\'s own words under a line in Japanese, and as they are in English', () => {
    const words = '`conditions` item 1 is text; each condition is an object like {field: 金額, operator: gte, value: 100000}';
    const said = { key: 'block_input_invalid', params: { block: 'transforms.filter' } };
    expect(sayRun('ja', words, said)).toBe('「transforms.filter」は与えられた入力を使えません。直す点は詳細にあります。');
    expect(sayRun('en', words, said)).toBe(words);
    const titles = (block: string) => (block === 'transforms.filter' ? '条件で行を絞り込む' : '');
    expect(sayRun('ja', words, said, titles)).toBe('「条件で行を絞り込む」は与えられた入力を使えません。直す点は詳細にあります。');
    expect(sayRun('ja', words, { key: 'block_failed', params: { block: 'acme.custom' } }, titles)).toBe('「acme.custom」が失敗しました。理由は詳細にあります。');
  });

  it('falls back to the English text without a code, or with one it does not know', () => {
    expect(sayRun('ja', 'HTTP 503 from api.example.com', null)).toBe('HTTP 503 from api.example.com');
    expect(sayRun('ja', 'page said no', undefined)).toBe('page said no');
    expect(sayRun('ja', 'a newer message', { key: 'no_such_code', params: {} })).toBe('a newer message');
  });

  it('says an API error in the person\'s language, without the English hint', () => {
    const error = toApiError(
      {
        code: 'not_found',
        message: 'there is no run r9',
        hint: 'pick a run from the run history (list_runs)',
        said: { key: 'run_not_found', params: { run_id: 'r9' } },
      },
      404,
    );
    expect(error.said).toEqual({ key: 'run_not_found', params: { run_id: 'r9' } });
    expect(sayApiError('ja', error)).toEqual({ message: '実行 r9 は見つかりません。実行履歴から選んでください。', hint: null });
    expect(sayApiError('en', error).message).toBe('There is no run r9. Pick a run from the run history.');
  });

  it('shows an API error without a code in its English words, framed by its kind in Japanese', () => {
    const error = toApiError({ code: 'internal', message: 'the disk is full', hint: 'free some space' }, 500);
    expect(error.said).toBeNull();
    expect(sayApiError('en', error)).toEqual({ message: 'the disk is full', hint: 'free some space' });
    expect(sayApiError('ja', error)).toEqual({
      message: 'スタジオの内部でエラーが起きました（the disk is full）。もう一度試し、繰り返す場合はこの文面を添えて報告してください。',
      hint: 'free some space',
    });
    expect(toApiError({ code: 'internal', message: 'm', said: 'not an object' }, 500).said).toBeNull();
  });

  it('has a frame in both languages for every kind of API error', () => {
    expect(API_ERROR_CODES.length).toBeGreaterThanOrEqual(7);
    for (const kind of API_ERROR_CODES) {
      expect(en[`api.kind.${kind}` as keyof typeof en], kind).toContain('{detail}');
      expect(ja[`api.kind.${kind}` as keyof typeof ja], kind).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
  });

  it('keeps the codes of run events for the run view', () => {
    const envelope = { schema: 5, run_id: 'r1', at: '2026-11-27T04:48:00.000Z' };
    const events = [
      { ...envelope, seq: 1, type: 'run_started', plan_id: 'p', plan_version: '1', plan_path: null, vars: {}, workdir: '/w', resumed_after: null },
      { ...envelope, seq: 2, type: 'node_started', node: 'fetch', attempt: 1, inputs: {} },
      { ...envelope, seq: 3, type: 'node_failed', node: 'fetch', elapsed_ms: 30012, attempts: 1, error: 'timed out after 30000 ms', timed_out: true, continued: false, said: { key: 'timed_out', params: { ms: 30000 } } },
      { ...envelope, seq: 4, type: 'node_skipped', node: 'save', reason: 'its condition `x` is false', said: { key: 'condition_false', params: { condition: 'x' } } },
      { ...envelope, seq: 5, type: 'log', node: null, level: 'warn', message: 'answer refused: month: required', said: { key: 'answer_refused', params: { fields: 'month: required' } } },
      // A record of schema 4: no `said` at all.
      { ...envelope, seq: 6, type: 'log', node: 'fetch', level: 'info', message: 'GET https://example.com → 503' },
      { ...envelope, seq: 7, type: 'run_finished', status: 'failed', counts: { succeeded: 0, failed: 1, skipped: 1, retried: 0, model_calls: 0, input_tokens: 0, output_tokens: 0, not_passed: 0 }, elapsed_ms: 30100, reason: '`fetch` failed: timed out', said: { key: 'node_halted', params: { node: 'fetch' } } },
    ] as RunEvent[];
    const state = replay(events);
    const fetch = state.nodes.fetch!;
    expect(sayRun('ja', fetch.error!, fetch.errorSaid)).toBe('30000 ms で時間切れになりました（ステップの timeout_ms）。処理は取り消されました。');
    expect(sayRun('ja', state.nodes.save!.reason!, state.nodes.save!.reasonSaid)).toBe('条件 x が偽のため、実行しませんでした。');
    expect(sayRun('ja', state.reason!, state.reasonSaid)).toBe('「fetch」が失敗したため、実行を中止しました。');
    expect(state.logs.map((l) => sayRun('ja', l.message, l.said))).toEqual(['回答を受け付けられませんでした: month: required']);
    expect(fetch.logs.map((l) => sayRun('ja', l.message, l.said))).toEqual(['GET https://example.com → 503']);
  });
});

describe('saying a step\'s evidence', () => {
  // As the runner keeps a sign-in step: two fields read back, then the button and where it led.
  const english =
    'textbox "ユーザーID" holds {{PORTAL_USER}} (9 characters); textbox "パスワード" holds {{PORTAL_PASSWORD}} (21 characters); ' +
    'the button "ログイン" pressed once: now at http://127.0.0.1:8700/menu.html ("トップ")';
  const parts = [
    {
      text: 'textbox "ユーザーID" holds {{PORTAL_USER}} (9 characters)',
      said: [{ key: 'proof_field_holds_placeholder', params: { role: 'textbox', name: 'ユーザーID', value: '{{PORTAL_USER}}', chars: 9 } }],
    },
    {
      text: 'textbox "パスワード" holds {{PORTAL_PASSWORD}} (21 characters)',
      said: [{ key: 'proof_field_holds_placeholder', params: { role: 'textbox', name: 'パスワード', value: '{{PORTAL_PASSWORD}}', chars: 21 } }],
    },
    {
      text: 'the button "ログイン" pressed once: now at http://127.0.0.1:8700/menu.html ("トップ")',
      said: [
        { key: 'proof_pressed_once', params: { role: 'button', name: 'ログイン' } },
        { key: 'proof_now_at', params: { url: 'http://127.0.0.1:8700/menu.html', title: 'トップ', titled: true } },
      ],
    },
  ] as EvidencePart[];

  it('says each piece the runner wrote in Japanese, and in English as the runner wrote it', () => {
    expect(sayEvidence('ja', english, null, parts)).toBe(
      '「ユーザーID」欄に {{PORTAL_USER}} が入っています（9 文字）。「パスワード」欄に {{PORTAL_PASSWORD}} が入っています（21 文字）。' +
        '「ログイン」ボタンを 1 回だけ押しました。http://127.0.0.1:8700/menu.html に移りました（「トップ」）。',
    );
    expect(sayEvidence('en', english, null, parts)).toBe(english);
  });

  it('keeps a piece from elsewhere as it is, and a piece with a code it does not know in its English words', () => {
    const model = { text: 'The confirmation number CN-1042 is shown.' };
    const newer = { text: 'something newer', said: [{ key: 'proof_from_a_newer_runner', params: {} }] };
    expect(sayEvidence('ja', '', null, [parts[0]!, model, newer] as EvidencePart[])).toBe(
      '「ユーザーID」欄に {{PORTAL_USER}} が入っています（9 文字）。The confirmation number CN-1042 is shown.。something newer。',
    );
  });

  it('says a step kept before its pieces were as sayRun does', () => {
    expect(sayEvidence('ja', english, null, [])).toBe(english);
    const gone = { key: 'blocker_gone', params: { blocking_role: 'dialog', blocking: 'Cookies', choice_role: 'key', choice: 'Escape' } };
    expect(sayEvidence('ja', 'gone', gone, undefined)).toBe('Escape キーを押すとダイアログ「Cookies」が消えました。');
    // As a record written before the roles holds it: its English words.
    const before = { key: 'blocker_gone', params: { blocking: 'dialog "Cookies"', choice: 'Accept' } };
    expect(sayEvidence('ja', 'dialog "Cookies" went away', before, undefined)).toBe('dialog "Cookies" went away');
  });

  it('names an element by its role in Japanese, and text on the page by its words', () => {
    const shown = (role: string, name: string) => sayCoded('ja', 'run', { key: 'proof_shown', params: { role, name } });
    expect(shown('text', '送信しました')).toBe('「送信しました」が表示されています');
    expect(shown('link', '明細')).toBe('「明細」リンクが表示されています');
    expect(shown('table', '取引明細')).toBe('表「取引明細」が表示されています');
    expect(shown('treegrid', '勘定科目')).toBe('treegrid「勘定科目」が表示されています');
    expect(sayCoded('en', 'run', { key: 'proof_shown', params: { role: 'text', name: 'Saved' } })).toBe('"Saved" is shown');
    expect(sayCoded('en', 'run', { key: 'proof_shown', params: { role: 'link', name: 'Invoices' } })).toBe('link "Invoices" is shown');
  });
});


describe("saying the planning history's look back at a failed attempt", () => {
  const said: RunMessage[] = [
    { key: 'objective_not_reached', params: { kind: 'not_found', attempts: 2 } },
    { key: 'reflection_done_before', params: { done: 1, total: 2 } },
    { key: 'reflection_page', params: { at_rest: true } },
    { key: 'reflection_next' },
    { key: 'approach_described', params: { approach: 'scroll_to_find' } },
  ];
  const english = 'Objective 2, attempt 2 (wait for the page to settle before looking and judging) failed: nothing matches "Export".';

  it('says every piece in Japanese, the approach tried next included', () => {
    const japanese = sayAll('ja', english, said, '');
    expect(japanese).toBe(
      '2 回試しても達成できませんでした: 必要なものがページにありません。それまでに、求められた 2 件のうち 1 件はできていました。' +
        'ページは落ち着いていたので、同じ見方でもう一度見ても同じです。次に試すこと（この目標ではまだ試していません）：ページをスクロールして対象を探す',
    );
  });

  it('is the runner\'s own words in English, which name the element the codes leave out', () => {
    expect(sayWords('en', english, said)).toBe(english);
    expect(sayWords('ja', english, said)).toBe(sayAll('ja', english, said, ''));
  });

  it('keeps the words of a look back with no codes, or with one this studio does not know', () => {
    expect(sayAll('ja', english, [], '')).toBe(english);
    expect(sayAll('ja', english, [...said, { key: 'reflection_from_a_newer_runner' } as unknown as RunMessage], '')).toBe(english);
  });
});

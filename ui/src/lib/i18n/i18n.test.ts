import { describe, expect, it } from 'vitest';
import { en } from './en';
import { ja } from './ja';
import { format, paramsOf, pick, resolveLang } from './messages';

describe('i18n', () => {
  it('English and Japanese have the same keys', () => {
    expect(Object.keys(ja).sort()).toEqual(Object.keys(en).sort());
  });

  it('has no empty strings', () => {
    for (const [k, v] of [...Object.entries(en), ...Object.entries(ja)]) expect(v.trim(), k).not.toBe('');
  });

  it('uses the same placeholders in both languages', () => {
    for (const k of Object.keys(en) as (keyof typeof en)[]) expect(paramsOf(ja[k]), k).toEqual(paramsOf(en[k]));
  });

  it('keeps the accessible names the end-to-end tests use', () => {
    expect(en['tab.design']).toBe('Design');
    expect(ja['tab.design']).toBe('設計');
    expect(en['design.validate']).toBe('Validate');
    expect(en['design.register']).toBe('Register');
    expect(en['run.start']).toBe('Start');
    expect(en['run.stop']).toBe('Stop');
  });

  it('follows the system locale unless a language is chosen', () => {
    expect(resolveLang('system', 'ja-JP')).toBe('ja');
    expect(resolveLang('system', 'en-GB')).toBe('en');
    expect(resolveLang('system', undefined)).toBe('en');
    expect(resolveLang('en', 'ja-JP')).toBe('en');
    expect(resolveLang('ja', 'en-US')).toBe('ja');
  });

  it('fills placeholders and picks localized texts', () => {
    expect(format('en', 'design.invalid', { n: 3 })).toBe('3 errors');
    expect(format('ja', 'design.invalid', { n: 3 })).toBe('エラー 3 件');
    expect(format('en', 'run.progress', { done: 0, total: 1 })).toBe('0 of 1 node finished');
    expect(pick('ja', { en: 'Read', ja: '読む' })).toBe('読む');
    expect(pick('ja', { en: 'Read', ja: '' })).toBe('Read');
  });

  it('pluralises counts in English, and keeps Japanese as it is', () => {
    expect(format('en', 'design.invalid', { n: 1 })).toBe('1 error');
    expect(format('en', 'design.invalid', { n: 2 })).toBe('2 errors');
    expect(format('en', 'design.invalid', { n: 0 })).toBe('0 errors');
    expect(format('en', 'design.warnings', { n: 1 })).toBe('1 warning');
    expect(format('en', 'design.warnings', { n: 5 })).toBe('5 warnings');
    expect(format('ja', 'design.invalid', { n: 1 })).toBe('エラー 1 件');
    expect(format('ja', 'design.warnings', { n: 1 })).toBe('警告 1 件');
  });

  it('finds the parameters of a message, in its choices and their forms too', () => {
    expect(paramsOf('{n, plural, one {# row of {table}} other {# rows}} in {side, select, left {left} other {right}}')).toEqual(['n', 'side', 'table']);
  });

  it('chooses a select form by the value, a flag by true or false, and fills the form', () => {
    // Through a real message: `browser_acted` holds plurals, flags and placeholders in its forms.
    const acted = { action: 'click', element: 'button "Send"', url: 'https://x.test/', ms: 40, dialogs: 0, new_tab: false, still_busy: false };
    expect(format('en', 'run.said.browser_acted', acted)).toBe('click button "Send" → https://x.test/ in 40 ms.');
    expect(format('en', 'run.said.browser_acted', { ...acted, dialogs: 2, new_tab: true })).toBe(
      'click button "Send" → https://x.test/ in 40 ms; answered 2 dialogs; followed the new tab it opened.',
    );
    expect(format('en', 'run.said.rows_not_comparable', { count: 1, field: 'Amount', value: 50000 })).toBe(
      '1 row has a “Amount” that cannot be compared with 50000; it was left out.',
    );
    const ended = { completed: 2, total: 3, outcome: 'reported', passes: 2, percent: 67, replayed: 0, model_calls: 1 };
    expect(format('en', 'run.said.objectives_ended', ended)).toBe('2 of 3 objectives done; reported after 2 passes (67 % satisfied); 1 model call.');
    expect(format('en', 'run.said.objectives_ended', { ...ended, outcome: 'none', model_calls: 0 })).toBe('2 of 3 objectives done; no model calls.');
    // A refusal is its own kind of failure, said as such in both languages.
    expect(format('en', 'run.said.objective_not_reached', { kind: 'refused', attempts: 1 })).toContain('refused for safety');
    expect(format('ja', 'run.said.objective_not_reached', { kind: 'refused', attempts: 1 })).toContain('安全のため操作を取りやめました');
  });

  it('leaves no plural form unfilled in any message', () => {
    // Every number a plural form counts, whatever the message calls it.
    const numbers = (text: string) => Object.fromEntries([...text.matchAll(/\{(\w+),\s*(?:plural|select),/g)].map((m) => [m[1]!, 1]));
    for (const lang of ['en', 'ja'] as const) {
      for (const k of Object.keys(en) as (keyof typeof en)[]) expect(format(lang, k, numbers(en[k])), `${lang} ${k}`).not.toMatch(/plural,|select,/);
    }
  });
});

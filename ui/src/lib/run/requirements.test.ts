import { describe, expect, it } from 'vitest';
import type { InputRequest, Requirement } from './inputRequest';
import numberCases from '../../../../crates/block/tests/numbers.json';
import { buildAnswer, checkField, emptyDraft, parseNumber, parseTable } from './requirements';

const req = (p: Partial<Requirement>): Requirement => ({ id: 'f', type: 'text', ...p });

describe('checkField', () => {
  it('requires required fields', () => {
    expect(checkField(req({ required: true }), '  ').problem?.key).toBe('input.required');
    expect(checkField(req({ required: false }), '').problem).toBeNull();
    expect(checkField(req({ required: false }), '').value).toBeNull();
  });

  it('parses numbers like the server (full-width, separators)', () => {
    expect(checkField(req({ type: 'number' }), '1,234.5').value).toBe(1234.5);
    expect(checkField(req({ type: 'number' }), '１２３').value).toBe(123);
    expect(checkField(req({ type: 'number' }), 'abc').problem?.key).toBe('input.notNumber');
  });

  it('reads every shared number case as the engine does', () => {
    for (const { text, value } of numberCases as { text: string; value: number | null }[]) {
      expect([text, parseNumber(text)]).toEqual([text, value]);
    }
  });

  it('checks options of select and enum', () => {
    const r = req({ type: 'select', options: ['経理部', '総務部'] });
    expect(checkField(r, '経理部').value).toBe('経理部');
    expect(checkField(r, '営業部').problem?.key).toBe('input.notOption');
    expect(checkField(req({ type: 'enum', options: ['a'] }), 'b').problem?.key).toBe('input.notOption');
  });

  it('turns booleans into true/false', () => {
    expect(checkField(req({ type: 'boolean' }), 'true').value).toBe(true);
    expect(checkField(req({ type: 'boolean' }), 'false').value).toBe(false);
    expect(checkField(req({ type: 'boolean', required: true }), '').problem?.key).toBe('input.required');
  });

  it('checks file extensions', () => {
    const r = req({ type: 'file', accept: '.csv, .xlsx' });
    expect(checkField(r, 'in/bank.CSV').problem).toBeNull();
    expect(checkField(r, 'in/bank.pdf').problem).toEqual({ key: 'input.badExtension', params: { accept: '.csv, .xlsx' } });
  });

  it('matches the whole answer against validation.regex', () => {
    const r = req({ validation: { regex: '\\d{4}-\\d{2}' } });
    expect(checkField(r, '2024-04').problem).toBeNull();
    expect(checkField(r, '2024-04-01').problem?.key).toBe('input.badFormat');
    expect(checkField(req({ validation: { regex: '(' } }), 'x').problem).toBeNull();
  });

  it('reads tables as JSON or CSV', () => {
    expect(parseTable('[{"a":1}]')).toEqual([{ a: 1 }]);
    expect(parseTable('[1,2]')).toBeNull();
    expect(parseTable('a,b\n1,2\n3')).toEqual([{ a: '1', b: '2' }, { a: '3', b: '' }]);
    expect(checkField(req({ type: 'table' }), '[{"x":1}]').value).toEqual([{ x: 1 }]);
    expect(checkField(req({ type: 'table' }), '[oops').problem?.key).toBe('input.badTable');
  });
});

describe('buildAnswer', () => {
  const collect: InputRequest = {
    mode: 'collect',
    message: 'm',
    requirements: [
      { id: 'closing_month', type: 'text', required: true, validation: { regex: '^\\d{4}-\\d{2}$' } },
      { id: 'amount', type: 'number' },
      { id: 'department', type: 'select', options: ['A', 'B'] },
    ],
    context: null,
  };

  it('builds the flat answer of a collect form', () => {
    const d = emptyDraft(collect);
    d.values = { closing_month: '2024-04', amount: '1,000', department: '' };
    expect(buildAnswer(collect, d)).toEqual({ ok: true, problems: {}, answer: { closing_month: '2024-04', amount: 1000, department: null } });
  });

  it('reports every problem at its field', () => {
    const d = emptyDraft(collect);
    d.values.amount = 'x';
    const r = buildAnswer(collect, d);
    expect(r.ok).toBe(false);
    expect(Object.keys(r.problems).sort()).toEqual(['amount', 'closing_month']);
  });

  it('asks for a decision in confirm mode and a comment when required', () => {
    const confirm: InputRequest = { mode: 'confirm', message: 'ok?', options: { comment_required: true } };
    const d = emptyDraft(confirm);
    expect(Object.keys(buildAnswer(confirm, d).problems).sort()).toEqual(['approved', 'comment']);
    d.approved = false;
    d.comment = 'no';
    expect(buildAnswer(confirm, d)).toMatchObject({ ok: true, answer: { approved: false, comment: 'no' } });
  });

  it('lets a mixed form be rejected without its required fields', () => {
    const mixed: InputRequest = { ...collect, mode: 'mixed' } as InputRequest;
    const d = emptyDraft(mixed);
    d.approved = false;
    expect(buildAnswer(mixed, d).ok).toBe(true);
    d.approved = true;
    expect(buildAnswer(mixed, d).problems.closing_month?.key).toBe('input.required');
  });

  it('asks one free-text question in inquire mode without requirements', () => {
    const inquire: InputRequest = { mode: 'inquire', message: 'why?', requirements: [], context: null };
    const d = emptyDraft(inquire);
    expect(buildAnswer(inquire, d).problems.response?.key).toBe('input.required');
    d.response = 'because';
    expect(buildAnswer(inquire, d)).toMatchObject({ ok: true, answer: { response: 'because' } });
  });
});

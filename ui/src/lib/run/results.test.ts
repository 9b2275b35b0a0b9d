import { describe, expect, it } from 'vitest';
import type { ResultValue } from '../api/types/ResultValue';
import type { ResultFile } from '../api/types/ResultFile';
import { cellText, filesInOrder, formatBytes, writtenToWorkFolder, valueView } from './results';

const value = (v: ResultValue['value'], rows?: number): ResultValue => ({ node: 'n', alias: 'a', value: v, ...(rows === undefined ? {} : { rows }) });

describe('a run\'s files', () => {
  const file = (shown_path: string): ResultFile =>
    ({ node: 'n', name: shown_path.split(/[\\/]/).pop()!, path: `/work/${shown_path}`, shown_path, report: false, bytes: 1, media_type: 'text/plain', preview: { kind: 'none', reason: '' } }) as ResultFile;

  it('lists what the run wrote into the work folder before its own records in the data home', () => {
    const files = [file('/home/ada/.local/share/planwright/runs/p/r/portal/planning.jsonl'), file('out/statement.csv'), file('C:\\Users\\ada\\planwright\\runs\\analysis.md'), file('reports/april.md')];
    expect(filesInOrder(files).map((f) => f.name)).toEqual(['statement.csv', 'april.md', 'planning.jsonl', 'analysis.md']);
    expect(writtenToWorkFolder(file('out/statement.csv'))).toBe(true);
    expect(writtenToWorkFolder(file('/tmp/x.csv'))).toBe(false);
    expect(writtenToWorkFolder(file('\\\\server\\share\\x.csv'))).toBe(false);
  });
});

describe('a run\'s results', () => {
  it('shows numbers as figures in the person\'s locale, short text as it is', () => {
    expect(valueView(value(1234567.5), 'en')).toEqual({ kind: 'figure', text: '1,234,567.5' });
    expect(valueView(value(1234567), 'ja')).toEqual({ kind: 'figure', text: '1,234,567' });
    expect(valueView(value('out/report.xlsx'), 'en')).toEqual({ kind: 'figure', text: 'out/report.xlsx' });
    expect(valueView(value('line one\nline two'), 'en').kind).toBe('text');
  });

  it('shows rows as a table with every column, and says how many rows there are', () => {
    const view = valueView(value([{ id: 1, name: '山田' }, { id: 2, extra: { a: 1 } }], 120), 'ja');
    expect(view).toEqual({
      kind: 'table',
      columns: ['id', 'name', 'extra'],
      rows: [
        ['1', '山田', ''],
        ['2', '', '{"a":1}'],
      ],
      total: 120,
    });
    expect(valueView(value(['a', 3]), 'en')).toEqual({ kind: 'list', items: ['a', '3'], total: 2 });
    expect(valueView(value({ sheets: ['Unpaid', 'Paid'], rows: 3 }), 'en')).toEqual({
      kind: 'fields',
      fields: [
        ['sheets', 'Unpaid, Paid'],
        ['rows', '3'],
      ],
    });
    expect(valueView(value({ a: { b: 1 } }), 'en').kind).toBe('json');
    expect(cellText(null, 'en')).toBe('');
  });

  it('says true and false as yes and no in the person\'s language, never as code', () => {
    const cases = [{ case: 'TC-01', passed: true }, { case: 'TC-02', passed: false }];
    expect(valueView(value(cases), 'en')).toMatchObject({ rows: [['TC-01', 'Yes'], ['TC-02', 'No']] });
    expect(valueView(value(cases), 'ja')).toMatchObject({ rows: [['TC-01', 'はい'], ['TC-02', 'いいえ']] });
    expect(valueView(value(true), 'ja')).toEqual({ kind: 'figure', text: 'はい' });
    expect(valueView(value({ approved: false }), 'en')).toEqual({ kind: 'fields', fields: [['approved', 'No']] });
  });

  it('gives file sizes in units people read', () => {
    expect(formatBytes(340, 'en')).toBe('340 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024, 'en')).toBe('5 MB');
  });
});

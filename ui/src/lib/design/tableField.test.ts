import { describe, expect, it } from 'vitest';
import type { PortInfo } from '../api/types/PortInfo';
import { cellValue, readType, tableRows, tableShape as shapeOf, tableValue } from './tableField';

const tableShape = (type: string, value: Parameters<typeof shapeOf>[1], fields?: PortInfo[]) => shapeOf({ type, fields }, value);

// Types as the catalog prints them (`crates/catalog/src/types.rs`, `impl Display for Type`).
const CONDITIONS = 'array(object(field: string, operator: string, value: any, value2: any))';
const LOCATOR = 'object(role: string, name: string, text: string, test_id: string, exact: boolean)';

describe('tables for lists and objects', () => {
  it('reads the catalog type grammar, and refuses what is not it', () => {
    expect(readType('array(object(a: string, b: number | null))')).toEqual({
      base: 'array',
      items: { base: 'object', props: [{ name: 'a', type: { base: 'string' } }, { name: 'b', type: { base: 'number' } }] },
    });
    expect(readType('string | integer')).toEqual({ base: 'any' });
    expect(readType('array(string')).toBeNull();
    expect(readType('object(a string)')).toBeNull();
  });

  it('shows a list of objects as rows under the declared columns and the keys the value has', () => {
    const shape = tableShape(CONDITIONS, [{ field: 'amount', operator: 'gt', value: 100, note: 'x' }]);
    expect(shape).toMatchObject({ kind: 'rows' });
    expect(shape?.kind === 'rows' && shape.columns.map((c) => `${c.name}:${c.type}:${c.declared}`)).toEqual([
      'field:string:true',
      'operator:string:true',
      'value:any:true',
      'value2:any:true',
      'note:any:false',
    ]);
    expect(tableRows(shape!, [{ field: 'amount', operator: 'gt', value: 100, note: 'x' }])).toEqual([['amount', 'gt', '100', '', 'x']]);
    // The catalog's field gives a column its help and its list of values.
    const operator: PortInfo = { name: 'operator', type: 'string', required: false, description: { en: 'eq equals', ja: 'eq 等しい' }, options: ['eq', 'gt'] };
    const withFields = tableShape(CONDITIONS, [], [operator]);
    expect(withFields?.kind === 'rows' && withFields.columns[1]!.field).toEqual(operator);
  });

  it('leaves to the JSON field what a table cannot show', () => {
    expect(tableShape(CONDITIONS, [{ field: 'a', value: { nested: 1 } }])).toBeNull();
    expect(tableShape(CONDITIONS, '${read.rows}')).toBeNull();
    expect(tableShape('array(array(string))', [])).toBeNull();
    expect(tableShape('object(a: array(string))', {})).toBeNull();
    expect(tableShape('any', [])).toBeNull();
    // An undeclared list of objects with no rows yet has no columns to show.
    expect(tableShape('array(object)', [])).toBeNull();
  });

  it('shows the plain properties of a list of objects that also declares a list, and leaves a row with it to the JSON field', () => {
    const AGGREGATIONS = 'array(object(field: string, op: string, as: string, when: array(object)))';
    const shape = tableShape(AGGREGATIONS, [{ field: 'amount', op: 'sum', as: 'total' }]);
    expect(shape?.kind === 'rows' && shape.columns.map((c) => c.name)).toEqual(['field', 'op', 'as']);
    expect(tableShape(AGGREGATIONS, [{ op: 'count', as: 'passed', when: [{ field: 'result', operator: 'eq', value: 'pass' }] }])).toBeNull();
  });

  it('shows plain lists as one column and objects as name and value', () => {
    expect(tableShape('array(string)', ['vendor', 'month'])).toEqual({ kind: 'list', type: 'string' });
    const locator = tableShape(LOCATOR, { role: 'button', exact: true });
    expect(locator).toMatchObject({ kind: 'fields', open: false });
    expect(tableRows(locator!, { role: 'button', exact: true })).toEqual([['button', '', '', '', 'true']]);
    expect(tableShape('object', { 'X-Key': 'a' })).toEqual({ kind: 'fields', open: true, fields: [{ name: 'X-Key', type: 'any', declared: false }] });
  });

  it('reads cells by their column type, keeping text that only looks like a number', () => {
    expect(cellValue('any', '120')).toEqual({ ok: true, value: 120 });
    expect(cellValue('any', '007')).toEqual({ ok: true, value: '007' });
    expect(cellValue('any', 'false')).toEqual({ ok: true, value: false });
    expect(cellValue('string', '120')).toEqual({ ok: true, value: '120' });
    expect(cellValue('integer', '1.5')).toEqual({ ok: false, error: 'notInteger' });
    expect(cellValue('number', 'abc')).toEqual({ ok: false, error: 'notNumber' });
    expect(cellValue('boolean', 'yes')).toEqual({ ok: false, error: 'notBoolean' });
    expect(cellValue('integer', '${vars.limit}')).toEqual({ ok: true, value: '${vars.limit}' });
    expect(cellValue('any', '  ')).toEqual({ ok: true, value: undefined });
  });

  it('turns the rows back into the value, dropping empty cells and rows, and names a bad cell', () => {
    const shape = tableShape(CONDITIONS, [])!;
    expect(tableValue(shape, [['amount', 'gt', '100', ''], ['', '', '', ''], ['vendor', 'eq', 'Acme', '']])).toEqual({
      ok: true,
      value: [{ field: 'amount', operator: 'gt', value: 100 }, { field: 'vendor', operator: 'eq', value: 'Acme' }],
    });
    const locator = tableShape(LOCATOR, {})!;
    expect(tableValue(locator, [['button', 'Save', '', '', 'maybe']])).toEqual({ ok: false, row: 0, column: 4, error: 'notBoolean' });
    expect(tableValue(locator, [['button', 'Save', '', '', 'true']])).toEqual({ ok: true, value: { role: 'button', name: 'Save', exact: true } });
    expect(tableValue({ kind: 'list', type: 'string' }, [['vendor'], [''], ['month']])).toEqual({ ok: true, value: ['vendor', 'month'] });
  });
});

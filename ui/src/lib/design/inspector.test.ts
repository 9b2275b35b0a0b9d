import { describe, expect, it } from 'vitest';
import type { BlockInfo } from '../api/types/BlockInfo';
import type { PortInfo } from '../api/types/PortInfo';
import { choicesFor, connection, fieldKind, fieldValue, findNode, fits, valueText, wholeReference } from './inspector';

const port = (name: string, type: string, over: Partial<PortInfo> = {}): PortInfo => ({ name, type, required: false, description: { en: '', ja: '' }, ...over });
const block = (id: string, inputs: PortInfo[], outputs: PortInfo[]): BlockInfo =>
  ({ id, version: '1.0.0', category: id.split('.')[0]!, title: { en: id, ja: id }, description: { en: '', ja: '' }, tags: { en: [], ja: [] }, inputs, outputs }) as BlockInfo;

const catalog = new Map<string, BlockInfo>([
  ['excel.read_data', block('excel.read_data', [port('path', 'file', { required: true })], [port('rows', 'array(object)'), port('count', 'integer')])],
  ['transforms.filter', block('transforms.filter', [port('items', 'array', { required: true }), port('expr', 'string', { required: true })], [port('items', 'array(object)')])],
  ['report.write', block('report.write', [port('data', 'any', { required: true }), port('format', 'string', { options: ['json', 'markdown'] }), port('path', 'file', { required: true })], [port('path', 'file')])],
]);

const PLAN = `apiVersion: planwright/v1
id: p
version: 1.0.0
vars:
  month: "2024-04"
  limit: 5
graph:
  - id: read
    block: excel.read_data
    in: {path: data/in.xlsx}
    out: {rows: rows, count: n}
  - id: each
    foreach: {input: "\${read.rows}", item_var: row}
    body:
      plan:
        graph:
          - id: first
            block: report.write
            in: {data: "\${vars.row}", path: out/x.json}
            out: {path: written}
          - id: second
            block: report.write
            in: {data: "\${first.written}", path: out/y.json}
  - id: save
    block: report.write
    in: {data: "\${read.rows}", format: json, path: out/z.json}
`;

describe('the node inspector', () => {
  it('finds a node by its path, inside loop bodies too', () => {
    expect(findNode(PLAN, 'read')?.in).toEqual({ path: 'data/in.xlsx' });
    expect(findNode(PLAN, 'each/second')?.in?.data).toBe('${first.written}');
    expect(findNode(PLAN, 'nope')).toBeNull();
    expect(findNode(': : :', 'read')).toBeNull();
  });

  it('edits each input with the field of its type', () => {
    expect(fieldKind(port('x', 'string'))).toBe('text');
    expect(fieldKind(port('x', 'integer | null'))).toBe('integer');
    expect(fieldKind(port('x', 'file'))).toBe('file');
    expect(fieldKind(port('x', 'array(object)'))).toBe('json');
    expect(fieldKind(port('x', 'string', { options: ['a', 'b'] }))).toBe('select');
    expect(fieldValue('integer', '1.5')).toEqual({ ok: false, error: 'notInteger' });
    expect(fieldValue('number', '2.5')).toEqual({ ok: true, value: 2.5 });
    expect(fieldValue('json', '[1')).toEqual({ ok: false, error: 'badJson' });
    expect(fieldValue('select', '3', [1, 3])).toEqual({ ok: true, value: 3 });
    expect(valueText('json', [{ a: 1 }])).toBe('[\n  {\n    "a": 1\n  }\n]');
    expect(wholeReference(' ${read.rows} ')).toBe('${read.rows}');
    expect(wholeReference('Total: ${read.n}')).toBeNull();
  });

  it('offers the outputs of the nodes before it, the loop item and the vars, typed', () => {
    const choices = choicesFor(PLAN, 'each/second', catalog).map((c) => `${c.reference}:${c.type}`);
    expect(choices).toEqual(['${read.rows}:array(object)', '${read.n}:integer', '${first.written}:file', '${vars.row}:any', '${vars.month}:string', '${vars.limit}:integer']);
    // A node sees nothing after it.
    expect(choicesFor(PLAN, 'read', catalog).map((c) => c.reference)).toEqual(['${vars.month}', '${vars.limit}']);
  });

  it('refuses a value whose type does not fit, saying both types', () => {
    expect(fits('array', 'array(object)')).toEqual({ ok: true });
    expect(fits('number', 'integer')).toEqual({ ok: true });
    expect(fits('any', 'string')).toEqual({ ok: true });
    expect(fits('string', 'array(object)')).toEqual({ ok: false, wanted: 'string', given: 'array(object)' });
    expect(fits('integer | null', 'number')).toEqual({ ok: false, wanted: 'integer | null', given: 'number' });
  });

  it('connects a new block after the selected node where the types fit', () => {
    const read = findNode(PLAN, 'read')!;
    expect(connection(catalog.get('transforms.filter')!, read, catalog)).toEqual({ input: 'items', reference: '${read.rows}' });
    expect(connection(catalog.get('excel.read_data')!, read, catalog)).toBeNull();
  });
});

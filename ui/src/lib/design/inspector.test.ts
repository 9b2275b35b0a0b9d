import { describe, expect, it } from 'vitest';
import type { BlockInfo } from '../api/types/BlockInfo';
import type { PortInfo } from '../api/types/PortInfo';
import type { Step } from '../api/types/Step';
import { choicesFor, columnChoices, connection, fieldKind, fieldValue, findNode, fits, nodeAt, sampleOf, shortSample, stillInspected, valueText, wholeReference } from './inspector';

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

  it('stops inspecting a node the text no longer has, but not while the text cannot be read', () => {
    const plan = (id: string) => `id: p\ngraph:\n  - id: ${id}\n    block: report.write\n`;
    expect(stillInspected(plan('save'), 'save')).toBe('save');
    expect(stillInspected(plan('read'), 'save')).toBeNull();
    expect(stillInspected('id: p\ngraph: [\n  - id: read', 'save')).toBe('save');
    expect(stillInspected(plan('save'), null)).toBeNull();
  });

  it('knows the node the editor cursor is in, inside loop bodies too', () => {
    const at = (needle: string) => nodeAt(PLAN, PLAN.indexOf(needle));
    expect(at('excel.read_data')).toBe('read');
    expect(at('out: {rows')).toBe('read');
    expect(at('foreach:')).toBe('each');
    expect(at('out/y.json')).toBe('each/second');
    expect(at('id: first')).toBe('each/first');
    expect(at('format: json')).toBe('save');
    expect(at('month:')).toBeNull();
    expect(nodeAt('graph: [ {id: a', 3)).toBeNull();
  });

  it('previews each value a node may read from the dry-run sample values', () => {
    const step = (id: string, inputs: Record<string, Step['inputs'][string]>, outputs: Record<string, Step['outputs'][string]>): Step =>
      ({ id, level: 0, depth: id.split('/').length - 1, kind: 'block', what: '', depends_on: [], inputs, outputs, runs: 1 }) as Step;
    const steps = [
      step('read', { path: 'data/in.xlsx' }, { rows: [{ vendor: 'Acme', amount: 120 }], n: 1 }),
      step('each', { 'foreach.input': [{ vendor: 'Acme', amount: 120 }] }, { collect: [] }),
      step('each/first', {}, { written: 'out/x.json' }),
    ];
    const choices = new Map(choicesFor(PLAN, 'each/second', catalog).map((c) => [c.reference, sampleOf(c, steps)]));
    expect(choices.get('${read.rows}')).toEqual([{ vendor: 'Acme', amount: 120 }]);
    expect(choices.get('${first.written}')).toBe('out/x.json');
    expect(choices.get('${vars.row}')).toEqual({ vendor: 'Acme', amount: 120 });
    expect(choices.get('${vars.month}')).toBe('2024-04');
    // Without a dry-run (an invalid plan) a node's output has no sample; a var still has its value.
    const none = choicesFor(PLAN, 'save', catalog).map((c) => sampleOf(c, []));
    expect(none).toEqual([undefined, undefined, '2024-04', 5]);
    expect(shortSample({ vendor: 'Acme', note: 'x'.repeat(80) }, 30)).toBe('{"vendor":"Acme","note":"xxxx…');
    expect(shortSample('plain')).toBe('"plain"');
  });
});

describe('the columns a field may name', () => {
  it('are found by node and field, a list item or a table cell taking the first row when it is new', () => {
    const columns = { 'totals/by/0': ['取引先', '金額'], 'keep/conditions/0/field': ['取引先', '合計'], 'match/left_key': ['id', 'name'] };
    expect(columnChoices(columns, 'match', 'left_key')).toEqual(['id', 'name']);
    expect(columnChoices(columns, 'totals', 'by', 0)).toEqual(['取引先', '金額']);
    expect(columnChoices(columns, 'totals', 'by', 3), 'a row added since').toEqual(['取引先', '金額']);
    expect(columnChoices(columns, 'keep', 'conditions', 1, 'field')).toEqual(['取引先', '合計']);
    expect(columnChoices(columns, 'keep', 'conditions', 0, 'value')).toBeUndefined();
    expect(columnChoices(columns, 'other', 'by', 0)).toBeUndefined();
  });
});

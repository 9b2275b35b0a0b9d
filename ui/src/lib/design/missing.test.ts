import { describe, expect, it } from 'vitest';
import type { DesignRequirement } from '../api/types/DesignRequirement';
import type { Finding } from '../api/types/Finding';
import { missingItems, varUseLine } from './missing';

const reqs: DesignRequirement[] = [
  { id: 'input_file', type: 'file', label: 'CSV', target: { kind: 'var', name: 'input_file' } },
  { id: 'open.url', type: 'text', label: 'URL', target: { kind: 'input', node: 'open', field: 'url' } },
  { id: 'PW', type: 'text', target: { kind: 'secret', name: 'PW' } },
];
const finding = (severity: 'error' | 'warning', message: string): Finding => ({
  code: 'x',
  severity,
  node: 'write',
  field: null,
  message,
  hint: null,
  candidates: [],
  path: '/graph/1',
  line: 12,
  column: 3,
});

describe('what is missing', () => {
  it('lists open vars, inputs, secrets and errors, each with where to go', () => {
    const items = missingItems(reqs, {}, [], [finding('error', 'bad'), finding('warning', 'meh')]);
    expect(items.map((i) => [i.kind, i.node, i.line])).toEqual([
      ['var', null, null],
      ['input', 'open', null],
      ['secret', null, null],
      ['error', 'write', 12],
    ]);
    expect(items[1]!.params).toEqual({ node: 'open', field: 'url', label: 'URL' });
  });

  it('goes to the first line that uses an open var', () => {
    const text = 'vars:\n  input_file: null\ngraph:\n  - id: read\n    in: {path: "${vars.input_file}"}\n';
    expect(varUseLine(text, 'input_file')).toBe(5);
    expect(varUseLine('x: ${vars.input_file_2}', 'input_file')).toBeNull();
    expect(missingItems(reqs, {}, [], [], text)[0]!.line).toBe(5);
  });

  it('drops what was answered or moved to run time', () => {
    expect(missingItems(reqs, { input_file: 'a.csv' }, ['open.url'], []).map((i) => i.kind)).toEqual(['secret']);
  });
});

import { describe, expect, it } from 'vitest';
import type { DesignRequirement } from '../api/types/DesignRequirement';
import { fillsOf, valueLine } from './fills';

const reqs: DesignRequirement[] = [
  { id: 'input_file', type: 'file', target: { kind: 'var', name: 'input_file' } },
  { id: 'open.url', type: 'text', target: { kind: 'input', node: 'open', field: 'url' } },
  { id: 'PASSWORD', type: 'text', target: { kind: 'secret', name: 'PASSWORD' } },
];

describe('what answers fill', () => {
  it('maps each answer to its var or node input, in order, and nothing for a secret', () => {
    const fills = fillsOf(reqs, { 'open.url': 'https://example.com', input_file: 'a.csv', PASSWORD: 'never' });
    expect(fills).toEqual([
      { kind: 'var', path: 'vars.input_file', node: null, requirement: 'input_file', value: 'a.csv' },
      { kind: 'input', path: 'open.url', node: 'open', requirement: 'open.url', value: 'https://example.com' },
    ]);
  });

  it('leaves out what is not answered', () => {
    expect(fillsOf(reqs, { input_file: '' })).toEqual([]);
  });

  it('shows values on one line, shortened', () => {
    expect(valueLine('a.csv')).toBe('a.csv');
    expect(valueLine([{ a: 1 }])).toBe('[{"a":1}]');
    expect(valueLine('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

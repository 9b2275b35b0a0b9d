import { describe, expect, it } from 'vitest';
import type { DesignInfo } from '../api/types/DesignInfo';
import { draftNameFor, groupDesigns, lifecycle } from './library';

const d = (file: string, plan_id: string, over: Partial<DesignInfo> = {}): DesignInfo =>
  ({ file, plan_id, version: '1.0.0', template: false, ...over }) as DesignInfo;

describe('the library', () => {
  it('lists one entry per plan with its versions newest first', () => {
    const entries = groupDesigns([
      d('invoices_202611270930.yaml', 'invoices'),
      d('qa_202611010800.yaml', 'qa'),
      d('invoices_202611271015.yaml', 'invoices'),
      d('templates/x/t.yaml', 't', { template: true }),
      d('broken.yaml', '', { problem: 'not a plan' }),
    ]);
    expect(entries.map((e) => [e.planId, e.versions.map((v) => v.file)])).toEqual([
      ['invoices', ['invoices_202611271015.yaml', 'invoices_202611270930.yaml']],
      ['qa', ['qa_202611010800.yaml']],
      ['broken.yaml', ['broken.yaml']],
    ]);
  });

  it('says whether the text is a draft, registered, or changed since', () => {
    expect(lifecycle('a', null)).toBe('draft');
    expect(lifecycle('a', 'a')).toBe('registered');
    expect(lifecycle('b', 'a')).toBe('changed');
  });

  it('names an untitled draft after its plan once it has an id, unless that name is taken', () => {
    expect(draftNameFor('untitled_20261127_103000.yaml', 'invoices', [])).toBe('invoices.yaml');
    expect(draftNameFor('untitled_20261127_103000.yaml', 'invoices', ['invoices.yaml'])).toBe('untitled_20261127_103000.yaml');
    expect(draftNameFor('untitled_20261127_103000.yaml', 'new_plan', [])).toBe('untitled_20261127_103000.yaml');
    expect(draftNameFor('invoices.yaml', 'renamed', [])).toBe('invoices.yaml');
  });
});

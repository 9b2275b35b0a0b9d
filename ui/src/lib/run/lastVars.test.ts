import { describe, expect, it } from 'vitest';
import type { RunVar } from '../api/types/RunVar';
import { keepVars, lastVars } from './lastVars';

/** The part of `Storage` the module uses, over a map. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, v),
  };
}

const v = (name: string, value: RunVar['value'] = null): RunVar => ({ name, value, default: value, type: 'string', file: false, missing: false });

describe("a plan's last run values", () => {
  it('are offered for the vars the plan still has, where they differ from its own values', () => {
    const storage = memoryStorage();
    keepVars('monthly_close', { month: '2026-10', input: 'data/ledger.csv', dropped: 'x' }, storage);
    const vars = [v('month', '2026-09'), v('input', 'data/ledger.csv'), v('new_one')];
    expect(lastVars('monthly_close', vars, storage)).toEqual({ month: '2026-10' });
    expect(lastVars('another_plan', vars, storage)).toEqual({});
  });

  it('are the latest run of the plan, and a broken store offers nothing rather than failing', () => {
    const storage = memoryStorage();
    keepVars('p', { month: '2026-10' }, storage);
    keepVars('p', { month: '2026-11' }, storage);
    expect(lastVars('p', [v('month')], storage)).toEqual({ month: '2026-11' });
    storage.setItem('planwright.lastVars', '{not json');
    expect(lastVars('p', [v('month')], storage)).toEqual({});
  });

  it('are kept for a bounded number of plans, the least recently started forgotten first', () => {
    const storage = memoryStorage();
    for (let i = 0; i < 60; i++) keepVars(`plan_${i}`, { month: String(i) }, storage);
    keepVars('plan_0', { month: 'again' }, storage);
    expect(lastVars('plan_5', [v('month')], storage)).toEqual({});
    expect(lastVars('plan_59', [v('month')], storage)).toEqual({ month: '59' });
    expect(lastVars('plan_0', [v('month')], storage)).toEqual({ month: 'again' });
    expect(Object.keys(JSON.parse(storage.getItem('planwright.lastVars')!))).toHaveLength(50);
  });
});

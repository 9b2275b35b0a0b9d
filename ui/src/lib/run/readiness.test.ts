import { describe, expect, it } from 'vitest';
import type { RunReadiness } from '../api/types/RunReadiness';
import type { RunVar } from '../api/types/RunVar';
import { collectVars, parseVar, planVarText, problemKey, secretState, tally, varField, varText } from './readiness';

const v = (over: Partial<RunVar>): RunVar => ({ name: 'x', value: null, default: null, type: 'string', file: false, missing: false, ...over });

describe('the run check', () => {
  it('edits each var with the field of the input it fills', () => {
    expect(varField(v({ file: true, type: 'file' }))).toBe('file');
    expect(varField(v({ type: 'integer' }))).toBe('integer');
    expect(varField(v({ type: 'number | null' }))).toBe('number');
    expect(varField(v({ type: 'boolean' }))).toBe('boolean');
    expect(varField(v({ type: 'array(object)' }))).toBe('json');
    expect(varField(v({ type: 'string' }))).toBe('text');
  });

  it('starts each field from the value the run would use', () => {
    expect(varText(v({ value: null }))).toBe('');
    expect(varText(v({ value: 3 }))).toBe('3');
    expect(varText(v({ value: ['a'] }))).toBe('[\n  "a"\n]');
  });

  it("puts back the plan's own value, whatever value the check was given", () => {
    const given = v({ value: '2026-10', default: '2026-09' });
    expect(varText(given)).toBe('2026-10');
    expect(planVarText(given)).toBe('2026-09');
    expect(planVarText(v({ value: 7, default: null }))).toBe('');
  });

  it('types what was typed, and says why when it cannot', () => {
    expect(parseVar('integer', ' 12 ')).toEqual({ ok: true, value: 12 });
    // What a bound number input holds: a number, or null when emptied.
    expect(parseVar('integer', 12)).toEqual({ ok: true, value: 12 });
    expect(parseVar('number', null)).toEqual({ ok: true, value: null });
    expect(parseVar('integer', '1.5')).toEqual({ ok: false, error: 'notInteger' });
    expect(parseVar('number', 'abc')).toEqual({ ok: false, error: 'notNumber' });
    expect(parseVar('number', '')).toEqual({ ok: true, value: null });
    expect(parseVar('json', '{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseVar('json', '{a')).toEqual({ ok: false, error: 'badJson' });
    expect(parseVar('boolean', 'true')).toEqual({ ok: true, value: true });
    expect(parseVar('text', ' 2024-04 ')).toEqual({ ok: true, value: ' 2024-04 ' });
    const vars = [v({ name: 'month' }), v({ name: 'limit', type: 'integer', value: 5 })];
    expect(collectVars(vars, { month: '2024-04' })).toEqual({ values: { month: '2024-04', limit: 5 }, errors: {} });
    expect(collectVars(vars, { month: 'x', limit: 'many' }).errors).toEqual({ limit: { ok: false, error: 'notNumber' } });
  });

  it('counts what holds and names every problem by its code', () => {
    const r: RunReadiness = {
      ready: false,
      plan_id: 'p',
      work_folder: '/home/a/Planwright',
      vars: [v({ name: 'month', missing: true })],
      secrets: [{ name: 'PORTAL_PASSWORD' }, { name: 'PORTAL_USER', where: 'keyring' }],
      files: [{ node: 'read', input: 'path', path: 'data/in.xlsx', present: true, meant: [] }],
      browser: { ok: true },
      problems: [
        { code: 'var_missing', subject: 'month', message: 'var `month` has no value' },
        { code: 'secret_missing', subject: 'PORTAL_PASSWORD', message: 'secret `PORTAL_PASSWORD` has no value' },
      ],
    };
    expect(tally(r)).toEqual({ ok: 3, total: 5 });
    expect(secretState(r.secrets[0]!)).toBe('missing');
    expect(secretState(r.secrets[1]!)).toBe('keyring');
    expect(r.problems.map(problemKey)).toEqual(['readiness.problem.var_missing', 'readiness.problem.secret_missing']);
  });
});

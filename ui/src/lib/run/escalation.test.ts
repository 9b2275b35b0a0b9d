import { describe, expect, it } from 'vitest';
import type { InputRequest } from './inputRequest';
import { recorded } from './fixtures/recorded';
import { escalationAnswer, escalationOf, fileName, reportOf } from './escalation';

/** The escalation requests of the recorded run, in order. */
function requests(): InputRequest[] {
  return recorded('shop-escalation').flatMap((e) => (e.type === 'input_requested' ? [e.request] : []));
}

describe('escalationOf', () => {
  it('reads the situation report and the choices offered from the request', () => {
    const first = escalationOf(requests()[0]!)!;
    expect(first.report).toMatchObject({
      request: '1. Search for widget\n2. Click the Export button\n',
      iterations: 1,
      max_iterations: 1,
      satisfaction: 0.4,
      analysis: null,
    });
    expect(first.report.achieved.map((a) => a.description)).toEqual(['Search for widget']);
    expect(first.report.missing.map((m) => m.description)).toEqual(['Click the Export button']);
    expect(first.report.missing[0]!.detail).toContain('nothing on the page matches "Export"');
    expect(first.report.tried).toHaveLength(1);
    expect(first.choices).toEqual(['more_detail', 'alternative_approach', 'accept_partial', 'technical_analysis', 'cancel']);
    expect(first.detailHint).toBe('Click "Download CSV" in the October row');
  });

  it('offers the analysis once: asked again with it written, without that choice', () => {
    const again = escalationOf(requests().find((r) => reportOf(r)?.analysis)!)!;
    expect(again.report.analysis).toMatch(/analysis-1\.md$/);
    expect(again.choices).toEqual(['more_detail', 'alternative_approach', 'accept_partial', 'cancel']);
  });

  it('is null for an ordinary form, a confirmation, or a context without a report', () => {
    const form: InputRequest = { mode: 'collect', message: 'Which month?', requirements: [{ id: 'month', type: 'text' }], context: { month: '2026-10' } };
    expect(escalationOf(form)).toBeNull();
    expect(escalationOf({ mode: 'confirm', message: 'Save?', options: {} } as InputRequest)).toBeNull();
    expect(reportOf({ ...form, context: { escalation: { request: 3 } } })).toBeNull();
    expect(reportOf({ ...form, context: null })).toBeNull();
  });

  it('keeps to the choices it knows, in their order, and reads lists defensively', () => {
    const req: InputRequest = {
      mode: 'collect',
      message: 'How to go on?',
      requirements: [{ id: 'choice', type: 'select', options: ['cancel', 'accept_partial', 'something_new'] }],
      context: { escalation: { request: 'x', satisfaction: 0.5, achieved: [{ objective: 0 }], missing: 'no', tried: ['a', 3], choices: [] } },
    };
    const e = escalationOf(req)!;
    expect(e.choices).toEqual(['accept_partial', 'cancel']);
    expect(e.report.achieved).toEqual([]);
    expect(e.report.missing).toEqual([]);
    expect(e.report.tried).toEqual(['a']);
    expect(e.detailHint).toBeNull();
  });
});

describe('escalationAnswer', () => {
  const e = escalationOf(requests()[0]!)!;

  it('asks for a choice first', () => {
    expect(escalationAnswer(e, null, '')).toEqual({ ok: false, problems: { choice: 'choose' } });
    expect(escalationAnswer(e, 'something_new', '')).toEqual({ ok: false, problems: { choice: 'choose' } });
  });

  it('needs the detail for "more detail" and sends it trimmed', () => {
    expect(escalationAnswer(e, 'more_detail', '   ')).toEqual({ ok: false, problems: { detail: 'detailRequired' } });
    expect(escalationAnswer(e, 'more_detail', '  Click "Add to cart"  ')).toEqual({ ok: true, answer: { choice: 'more_detail', detail: 'Click "Add to cart"' } });
  });

  it('sends the other choices alone', () => {
    expect(escalationAnswer(e, 'accept_partial', 'ignored')).toEqual({ ok: true, answer: { choice: 'accept_partial' } });
    expect(escalationAnswer(e, 'cancel', '')).toEqual({ ok: true, answer: { choice: 'cancel' } });
  });

  it('refuses a choice no longer offered', () => {
    const again = escalationOf(requests().find((r) => reportOf(r)?.analysis)!)!;
    expect(escalationAnswer(again, 'technical_analysis', '')).toEqual({ ok: false, problems: { choice: 'choose' } });
  });
});

describe('fileName', () => {
  it('is the last part of a path', () => {
    expect(fileName('/home/ana/runs/p/r/export/analysis-1.md')).toBe('analysis-1.md');
    expect(fileName('C:\\runs\\evidence\\01-completed.png')).toBe('01-completed.png');
  });
});

import { describe, expect, it } from 'vitest';
import type { Finding } from '../api/types/Finding';
import { findingMessage, findingSpan, findingsToDiagnostics, findingTitleKey, lineStarts } from './diagnostics';

const text = [
  'apiVersion: planwright/v1', // 1
  'id: demo', // 2
  'graph:', // 3
  '  - id: read', // 4
  '    block: excel.wrte   ', // 5
  '    in:', // 6
  '      path: ${vars.x}', // 7
  '  - id: each[0]', // 8 (not a real id; for the node lookup test)
  '', // 9
].join('\n');

function finding(p: Partial<Finding>): Finding {
  return { code: 'x', severity: 'error', node: null, field: null, message: 'm', hint: null, candidates: [], path: '/', line: null, column: null, ...p };
}

/** Where a finding points, the fields it leaves out null (as the server sends them). */
const at = (p: Partial<Pick<Finding, 'line' | 'column' | 'node'>>) => ({ line: null, column: null, node: null, ...p });

describe('findingSpan', () => {
  it('underlines from the column to the end of the line, trailing spaces excluded', () => {
    const s = findingSpan(text, at({ line: 5, column: 5 }));
    expect(text.slice(s.from, s.to)).toBe('block: excel.wrte');
    expect(s.line).toBe(5);
  });

  it('handles a column in the middle of a value', () => {
    const s = findingSpan(text, at({ line: 7, column: 13 }));
    expect(text.slice(s.from, s.to)).toBe('${vars.x}');
  });

  it('without a column underlines the line from its first non-blank character', () => {
    const s = findingSpan(text, at({ line: 4 }));
    expect(text.slice(s.from, s.to)).toBe('- id: read');
  });

  it('falls back to the node id line when there is no line', () => {
    const s = findingSpan(text, at({ node: 'read' }));
    expect(s.line).toBe(4);
    expect(text.slice(s.from, s.to)).toBe('- id: read');
  });

  it('uses the last segment of a node path', () => {
    expect(findingSpan(text, at({ node: 'loop[2]/read' })).line).toBe(4);
  });

  it('falls back to the first line when nothing locates it', () => {
    const s = findingSpan(text, at({ node: 'nowhere' }));
    expect(s.line).toBe(1);
    expect(s.from).toBe(0);
  });

  it('clamps a line past the end and an empty last line', () => {
    const s = findingSpan(text, at({ line: 99, column: 3 }));
    expect(s.line).toBe(9);
    expect(s.to).toBeLessThanOrEqual(text.length);
    expect(s.from).toBeLessThan(s.to);
  });

  it('works on an empty document', () => {
    const s = findingSpan('', at({ line: 1, column: 1 }));
    expect(s).toEqual({ from: 0, to: 0, line: 1 });
  });

  it('clamps a column past the end of the line', () => {
    const s = findingSpan(text, at({ line: 2, column: 40 }));
    expect(s.from).toBeLessThan(s.to);
    expect(s.to).toBeLessThanOrEqual(lineStarts(text)[2]!);
  });

  it('counts columns in UTF-16 code units like CodeMirror', () => {
    const jp = 'a:\n  部門: ${x}\n';
    const s = findingSpan(jp, at({ line: 2, column: 3 }));
    expect(jp.slice(s.from, s.to)).toBe('部門: ${x}');
  });
});

describe('findingsToDiagnostics', () => {
  it('maps severity, code and message with the hint', () => {
    const [d] = findingsToDiagnostics(text, [
      finding({ code: 'unknown_block', line: 5, column: 12, message: 'no block `excel.wrte`', hint: 'did you mean excel.write' }),
    ]);
    expect(d).toMatchObject({ severity: 'error', source: 'unknown_block' });
    expect(d!.message).toBe('no block `excel.wrte`\ndid you mean excel.write');
    expect(text.slice(d!.from, d!.to)).toBe('excel.wrte');
  });

  it('maps warnings', () => {
    const [d] = findingsToDiagnostics(text, [finding({ severity: 'warning', line: 2 })]);
    expect(d!.severity).toBe('warning');
  });
});

describe('findings in the person\'s language', () => {
  it('every finding code the validator and the studio give has a title in English and Japanese', async () => {
    const { readFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const { en } = await import('../i18n/en');
    const { ja } = await import('../i18n/ja');
    const source = readFileSync(resolve(import.meta.dirname, '../../../../crates/plan/src/finding.rs'), 'utf8');
    const block = source.slice(source.indexOf('codes! {'));
    const codes = [...block.matchAll(/^\s+[A-Z]\w+ = "(\w+)",$/gm)].map((m) => m[1]!);
    expect(codes.length).toBeGreaterThan(30);
    // The studio adds `unreadable` for a text that is no plan.
    for (const code of [...codes, 'unreadable']) {
      const key = findingTitleKey(code);
      expect(key, code).not.toBeNull();
      expect((en as Record<string, string>)[key!], code).toBeTruthy();
      expect((ja as Record<string, string>)[key!], code).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
    expect(findingTitleKey('no_such_code')).toBeNull();
  });

  it('leads the editor\'s message with the title when there is one', () => {
    const f = finding({ message: 'there is no block `report.writ`', hint: 'did you mean report.write?' });
    expect(findingMessage(f, 'カタログにないブロックです')).toBe('カタログにないブロックです\nthere is no block `report.writ`\ndid you mean report.write?');
    expect(findingMessage(f)).toBe('there is no block `report.writ`\ndid you mean report.write?');
  });
});

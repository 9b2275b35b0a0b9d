import { describe, expect, it } from 'vitest';
import { safeFileName } from './download';

describe('safeFileName', () => {
  it('keeps a report’s own name, and makes others safe to save', () => {
    expect(safeFileName('portal_statement_01a21b51.html')).toBe('portal_statement_01a21b51.html');
    expect(safeFileName('a/b\\c:d.xml')).toBe('a_b_c_d.xml');
    expect(safeFileName('..hidden')).toBe('hidden');
    expect(safeFileName('  ')).toBe('report');
  });
});

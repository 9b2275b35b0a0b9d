import { describe, expect, it } from 'vitest';
import type { DocumentInfo } from '../api/types/DocumentInfo';
import { emptySession, generateRequest, restoreSession } from './session';
import { acceptedName, bytesToBase64, sizeText, withDocument } from './documents';
import type { TemplateInfo } from '../api/types/TemplateInfo';
import { allTags, templateMatches } from './templates';

const doc = (name: string, skipped: string | null = null): DocumentInfo => ({
  name,
  path: `documents/${name}`,
  size: 10,
  format: 'pdf',
  pages: 1,
  sheets: null,
  chars: 5,
  truncated: false,
  notes: [],
  skipped,
});

describe('the design session', () => {
  it('reads back what it can and leaves the rest empty', () => {
    const s = restoreSession({ instruction: 'x', templates: ['a', 3], apply_mode: 'bogus', chat: [{ from: 'studio', text: 'q', requirement: null }, { text: 1 }], generation: { nope: 1 } });
    expect(s).toEqual({ ...emptySession(), instruction: 'x', templates: ['a'], chat: [{ from: 'studio', text: 'q', requirement: null }] });
    expect(restoreSession(null)).toEqual(emptySession());
  });

  it('asks a generation with the documents that were read', () => {
    const s = { ...emptySession(), instruction: 'go', documents: [doc('a.pdf'), doc('b.pdf', 'encrypted, skipped')], pinned: ['x'] };
    expect(generateRequest(s)).toEqual({ instruction: 'go', documents: ['a.pdf'], templates: [], apply_mode: 'compose', pinned: ['x'], answers: {} });
  });
});

describe('documents', () => {
  it('takes the kinds the engine reads', () => {
    expect(acceptedName('規程.PDF')).toBe(true);
    expect(acceptedName('a.xlsx')).toBe(true);
    expect(acceptedName('a.exe')).toBe(false);
    expect(acceptedName('noext')).toBe(false);
  });

  it('encodes bytes as base64 in chunks', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => i % 256);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('sums up sizes and replaces a document of the same name', () => {
    expect([sizeText(820), sizeText(12 * 1024), sizeText(1.4 * 1024 * 1024)]).toEqual(['820 B', '12 KB', '1.4 MB']);
    expect(withDocument([doc('a.pdf')], { ...doc('a.pdf'), pages: 3 }).map((d) => d.pages)).toEqual([3]);
    expect(withDocument([doc('a.pdf')], doc('b.pdf')).map((d) => d.name)).toEqual(['a.pdf', 'b.pdf']);
  });
});

describe('the template gallery', () => {
  const t = (id: string, en: string[], ja: string[]): TemplateInfo => ({
    id,
    file: `templates/x/${id}.yaml`,
    category: 'finance',
    title: { en: `Title ${id}`, ja: `題 ${id}` },
    description: { en: 'Matches invoices', ja: '請求を照合' },
    tags: { en, ja },
    imports: [],
    exports: [],
    secrets: [],
    nodes: [],
    problem: null,
  });
  const list = [t('bank', ['bank', 'match'], ['銀行']), t('dup', ['match'], ['重複'])];

  it('finds templates by words in either language and by tags', () => {
    expect(list.filter((x) => templateMatches(x, '照合', [], 'en')).length).toBe(2);
    expect(list.filter((x) => templateMatches(x, 'bank', [], 'en')).map((x) => x.id)).toEqual(['bank']);
    expect(list.filter((x) => templateMatches(x, '', ['match'], 'en')).map((x) => x.id)).toEqual(['bank', 'dup']);
    expect(list.filter((x) => templateMatches(x, '', ['銀行'], 'ja')).map((x) => x.id)).toEqual(['bank']);
  });

  it('lists tags most used first', () => {
    expect(allTags(list, 'en')).toEqual(['match', 'bank']);
  });
});

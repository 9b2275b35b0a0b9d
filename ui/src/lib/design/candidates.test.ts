import { describe, expect, it } from 'vitest';
import type { CandidateHit } from '../api/types/CandidateHit';
import { groupByCategory, togglePin, matchedWords } from './candidates';

const hit = (id: string, category: string): CandidateHit => ({ id, category, score: 1, why: [], pinned: false });

describe('candidate blocks', () => {
  it('groups by category in the order of the best hit, pinned first in a group', () => {
    const groups = groupByCategory([hit('file.read_csv', 'file'), hit('transforms.filter', 'transforms'), hit('file.write_csv', 'file')], ['file.write_csv']);
    expect(groups.map((g) => g.category)).toEqual(['file', 'transforms']);
    expect(groups[0]!.hits.map((h) => [h.id, h.pinned])).toEqual([
      ['file.write_csv', true],
      ['file.read_csv', false],
    ]);
  });

  it('pins and unpins', () => {
    expect(togglePin([], 'a')).toEqual(['a']);
    expect(togglePin(['a', 'b'], 'a')).toEqual(['b']);
  });
});

describe('why a block is suggested', () => {
  it('says the words matched, not the fields and scores of the search', () => {
    expect(matchedWords(['xlsx (tags, description)', 'duplicate (title)', 'meaning (cosine 0.62)'], 'a similar meaning')).toEqual([
      'xlsx',
      'duplicate',
      'a similar meaning',
    ]);
    expect(matchedWords(['重複 (tags)', '重複 (description)'], '意味が近い')).toEqual(['重複']);
  });
});

import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from './markdown';

describe('parseMarkdown', () => {
  it('reads a technical analysis as the engine writes it', () => {
    const doc = [
      '# Technical analysis — node `export`',
      '',
      '## What was asked',
      '',
      '```',
      '1. Search for widget',
      '2. Click the Export button',
      '```',
      '',
      '## Objectives',
      '',
      '1. Search for widget — **completed** after 1 attempt: searchbox holds "widget"',
      '2. Click the Export button — **failed** after 1 attempt',
      '',
      '- objective 2: the target was not on the page',
      '',
      'The attempts, one a line, are in `/runs/x/steps.jsonl`.',
    ].join('\n');
    const blocks = parseMarkdown(doc);
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'heading', 'code', 'heading', 'list', 'list', 'paragraph']);
    expect(blocks[0]).toEqual({ kind: 'heading', level: 1, content: [{ kind: 'text', text: 'Technical analysis — node ' }, { kind: 'code', text: 'export' }] });
    expect(blocks[2]).toEqual({ kind: 'code', lang: '', text: '1. Search for widget\n2. Click the Export button' });
    const list = blocks[4]!;
    expect(list.kind === 'list' && list.ordered && list.items.length).toBe(2);
    expect(list.kind === 'list' && list.items[0]!.content[1]).toEqual({ kind: 'strong', children: [{ kind: 'text', text: 'completed' }] });
    expect(blocks[5]).toMatchObject({ kind: 'list', ordered: false });
  });

  it('joins a paragraph’s lines, continues list items, and reads rules and quotes', () => {
    expect(parseMarkdown('one\ntwo\n\nthree')).toEqual([
      { kind: 'paragraph', content: [{ kind: 'text', text: 'one two' }] },
      { kind: 'paragraph', content: [{ kind: 'text', text: 'three' }] },
    ]);
    expect(parseMarkdown('- a\n  more\n- b')).toEqual([
      {
        kind: 'list',
        ordered: false,
        start: 1,
        items: [
          { content: [{ kind: 'text', text: 'a more' }], children: [] },
          { content: [{ kind: 'text', text: 'b' }], children: [] },
        ],
      },
    ]);
    expect(parseMarkdown('3. c\n4. d')[0]).toMatchObject({ kind: 'list', ordered: true, start: 3 });
    expect(parseMarkdown('---')).toEqual([{ kind: 'rule' }]);
    expect(parseMarkdown('> said')).toEqual([{ kind: 'quote', content: [{ kind: 'text', text: 'said' }] }]);
  });

  it('nests an indented list under its item (a recovery step under its objective)', () => {
    const blocks = parseMarkdown('1. Sign in — **completed**\n2. Open Statements — **completed**\n   - recovery: Close dialog "Privacy"\n3. Download');
    expect(blocks).toHaveLength(1);
    const list = blocks[0]!;
    expect(list.kind === 'list' && list.items.map((it) => it.children.length)).toEqual([0, 1, 0]);
    expect(list.kind === 'list' && list.items[1]!.children[0]).toEqual({
      kind: 'list',
      ordered: false,
      start: 1,
      items: [{ content: [{ kind: 'text', text: 'recovery: Close dialog "Privacy"' }], children: [] }],
    });
  });

  it('keeps an unclosed fence to the end and never reads HTML', () => {
    expect(parseMarkdown('```yaml\na: 1')).toEqual([{ kind: 'code', lang: 'yaml', text: 'a: 1' }]);
    expect(parseMarkdown('<script>alert(1)</script>')).toEqual([{ kind: 'paragraph', content: [{ kind: 'text', text: '<script>alert(1)</script>' }] }]);
  });
});

describe('parseInline', () => {
  it('reads emphasis, code and links, and leaves snake_case alone', () => {
    expect(parseInline('an *important* `x` [doc](https://example.com)')).toEqual([
      { kind: 'text', text: 'an ' },
      { kind: 'em', children: [{ kind: 'text', text: 'important' }] },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'x' },
      { kind: 'text', text: ' ' },
      { kind: 'link', href: 'https://example.com', children: [{ kind: 'text', text: 'doc' }] },
    ]);
    expect(parseInline('more_detail and accept_partial')).toEqual([{ kind: 'text', text: 'more_detail and accept_partial' }]);
    expect(parseInline('2 * 3 * 4')).toEqual([{ kind: 'text', text: '2 * 3 * 4' }]);
    expect(parseInline('**unclosed')).toEqual([{ kind: 'text', text: '**unclosed' }]);
  });

  it('follows web links only', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('/etc/passwd')).toBeNull();
  });
});

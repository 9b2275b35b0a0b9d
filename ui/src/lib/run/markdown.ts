// A small Markdown reader for the documents a run writes (the technical analysis): headings,
// paragraphs, bulleted and numbered lists, fenced code, rules, and inline **bold**, *italic*,
// `code` and [links](…). It returns a tree the component draws with ordinary elements — never
// HTML from the text — so nothing in a document can run or restyle the studio.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: Inline[] };

/** A list item: its text, and the lists indented under it. */
export interface ListItem {
  content: Inline[];
  children: Block[];
}

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; content: Inline[] }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'quote'; content: Inline[] }
  | { kind: 'rule' };

/** Inline spans of one line or paragraph. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('`')) {
      const ticks = /^`+/.exec(rest)![0];
      const end = rest.indexOf(ticks, ticks.length);
      if (end > 0) {
        flush();
        out.push({ kind: 'code', text: rest.slice(ticks.length, end).trim() || rest.slice(ticks.length, end) });
        i += end + ticks.length;
        continue;
      }
    }
    if (rest.startsWith('**') || rest.startsWith('__')) {
      const mark = rest.slice(0, 2);
      const end = rest.indexOf(mark, 2);
      if (end > 2) {
        flush();
        out.push({ kind: 'strong', children: parseInline(rest.slice(2, end)) });
        i += end + 2;
        continue;
      }
    }
    if ((rest.startsWith('*') || rest.startsWith('_')) && rest.length > 2 && rest[1] !== ' ') {
      const mark = rest[0]!;
      const end = rest.indexOf(mark, 1);
      // `_` inside words (snake_case) is not emphasis.
      const wordBefore = mark === '_' && /\w$/.test(plain);
      if (end > 1 && rest[end - 1] !== ' ' && !wordBefore) {
        flush();
        out.push({ kind: 'em', children: parseInline(rest.slice(1, end)) });
        i += end + 1;
        continue;
      }
    }
    if (rest.startsWith('[')) {
      const m = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest);
      if (m) {
        flush();
        out.push({ kind: 'link', href: m[2]!, children: parseInline(m[1]!) });
        i += m[0].length;
        continue;
      }
    }
    plain += text[i];
    i += 1;
  }
  flush();
  return out;
}

const bullet = /^\s{0,3}[-*+]\s+(.*)$/;
const numbered = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;

/** The blocks of a Markdown document. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const flushPara = () => {
    if (para.length) blocks.push({ kind: 'paragraph', content: parseInline(para.join(' ')) });
    para = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (fence) {
      flushPara();
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i += 1;
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n').replace(/\n+$/, '') });
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flushPara();
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, content: parseInline(heading[2]!) });
      i += 1;
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flushPara();
      blocks.push({ kind: 'rule' });
      i += 1;
      continue;
    }
    if (bullet.test(line) || numbered.test(line)) {
      flushPara();
      const ordered = !bullet.test(line);
      const start = ordered ? Number(numbered.exec(line)![1]) : 1;
      const items: { text: string; nested: string[] }[] = [];
      const indent = (l: string) => /^\s*/.exec(l)![0].length;
      const base = indent(line);
      while (i < lines.length) {
        const l = lines[i]!;
        const m = indent(l) <= base ? (ordered ? numbered.exec(l) : bullet.exec(l)) : null;
        if (m) items.push({ text: ordered ? m[2]! : m[1]!, nested: [] });
        else if (l.trim() !== '' && indent(l) > base && items.length) {
          const last = items[items.length - 1]!;
          // An indented list marker starts a list under the item; other indented lines go on its text.
          if (last.nested.length || bullet.test(l.slice(Math.min(indent(l), base + 2))) || numbered.test(l.slice(Math.min(indent(l), base + 2)))) {
            last.nested.push(l.slice(Math.min(indent(l), base + 2)));
          } else last.text += ` ${l.trim()}`;
        } else break;
        i += 1;
      }
      blocks.push({
        kind: 'list',
        ordered,
        start,
        items: items.map((it) => ({ content: parseInline(it.text), children: it.nested.length ? parseMarkdown(it.nested.join('\n')) : [] })),
      });
      continue;
    }
    if (/^\s{0,3}>\s?/.test(line)) {
      flushPara();
      const quoted: string[] = [];
      while (i < lines.length && /^\s{0,3}>\s?/.test(lines[i]!)) quoted.push(lines[i++]!.replace(/^\s{0,3}>\s?/, ''));
      blocks.push({ kind: 'quote', content: parseInline(quoted.join(' ')) });
      continue;
    }
    if (line.trim() === '') flushPara();
    else para.push(line.trim());
    i += 1;
  }
  flushPara();
  return blocks;
}

/** Whether a link may be followed from the studio (web addresses only). */
export function safeHref(href: string): string | null {
  return /^https?:\/\//i.test(href) ? href : null;
}

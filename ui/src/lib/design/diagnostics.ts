// Validation findings → CodeMirror diagnostics (pure: works on the document's text).
import type { Diagnostic } from '@codemirror/lint';
import type { Finding } from '../api/types/Finding';
import { en, type MessageKey } from '../i18n/en';

export interface Span {
  from: number;
  to: number;
  /** 1-based line the span starts on. */
  line: number;
}

/** Offsets of the start of each line. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineEnd(text: string, starts: number[], index: number): number {
  const next = starts[index + 1];
  return next === undefined ? text.length : next - 1;
}

/** Where a finding belongs in the text: at its line and column, else at its node's `id:` line, else the first line. */
export function findingSpan(text: string, finding: Pick<Finding, 'line' | 'column' | 'node'>, starts = lineStarts(text)): Span {
  let lineIndex: number | null = null;
  let col = 1;
  if (typeof finding.line === 'number' && finding.line >= 1) {
    lineIndex = Math.min(finding.line, starts.length) - 1;
    col = typeof finding.column === 'number' && finding.column >= 1 ? finding.column : 0;
  } else if (finding.node) {
    const root = finding.node.split('/').pop()!.replace(/\[\d+\]$/, '');
    const re = new RegExp(`^\\s*(?:-\\s+)?id:\\s*["']?${escapeRe(root)}["']?\\s*(?:#.*)?$`);
    for (let i = 0; i < starts.length; i++) {
      const content = text.slice(starts[i], lineEnd(text, starts, i));
      if (re.test(content)) {
        lineIndex = i;
        col = 0;
        break;
      }
    }
  }
  if (lineIndex === null) {
    lineIndex = 0;
    col = 0;
  }
  const start = starts[lineIndex]!;
  const end = lineEnd(text, starts, lineIndex);
  const content = text.slice(start, end);
  const trimmedEnd = start + content.replace(/\s+$/, '').length;
  // Column 0 means "the line": start at its first non-blank character.
  let from = col >= 1 ? start + Math.min(col - 1, content.length) : start + (content.length - content.trimStart().length);
  let to = trimmedEnd;
  if (to <= from) {
    // Nothing after the column on this line: underline one character (or stay at the end of the text).
    to = Math.min(from + 1, text.length);
    if (to <= from) from = Math.max(0, to - 1);
  }
  return { from, to, line: lineIndex + 1 };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function severityOf(f: Pick<Finding, 'severity'>): Diagnostic['severity'] {
  // `Severity` is `error | warning`: there is no `hint` or `info` finding.
  return f.severity === 'error' ? 'error' : 'warning';
}

/** The message a person reads: what is wrong, then what would fix it. */
/** The finding as the editor's tooltip says it: its title in the person's language when given, then the details. */
export function findingMessage(f: Finding, title: string | null = null): string {
  const parts = title ? [title, f.message] : [f.message];
  if (f.hint) parts.push(f.hint);
  return parts.join('\n');
}

/** The message key of a finding code's title (`finding.unknown_block`); null for a code without one. */
export function findingTitleKey(code: string): MessageKey | null {
  const key = `finding.${code}`;
  return key in en ? (key as MessageKey) : null;
}

/** `titleOf` gives a finding's title in the person's language (or null: the English message alone). */
export function findingsToDiagnostics(text: string, findings: Finding[], titleOf: (f: Finding) => string | null = () => null): Diagnostic[] {
  const starts = lineStarts(text);
  return findings.map((f) => {
    const span = findingSpan(text, f, starts);
    return {
      from: span.from,
      to: span.to,
      severity: severityOf(f),
      source: f.code,
      message: findingMessage(f, titleOf(f)),
    };
  });
}

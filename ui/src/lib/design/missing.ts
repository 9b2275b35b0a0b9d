// What a generated plan still lacks, in one list for the Missing panel: the chat's open
// questions (a var without a value, an input a block needs), the secrets it names, and the
// errors the plan still has — each with the node to go to.
import type { DesignRequirement } from '../api/types/DesignRequirement';
import type { Finding } from '../api/types/Finding';
import type { MessageKey } from '../i18n/en';
import { openQuestions, secretNames, type Answers } from './chat';

export interface MissingItem {
  kind: 'job' | 'var' | 'input' | 'secret' | 'error';
  key: MessageKey;
  params: Record<string, string>;
  /** The node to go to, when there is one. */
  node: string | null;
  /** The line of a finding, when known. */
  line: number | null;
  /** The question it is, for "answer in the chat". */
  requirement: string | null;
}

/** The 1-based line of the first use of `vars.NAME` in the plan's text (not its declaration), if any. */
export function varUseLine(text: string, name: string): number | null {
  const use = new RegExp(`(^|[^\\w.])vars\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`);
  const at = text.split('\n').findIndex((line) => use.test(line));
  return at < 0 ? null : at + 1;
}

export function missingItems(
  requirements: DesignRequirement[],
  answers: Answers,
  deferred: readonly string[],
  findings: Finding[],
  text = '',
): MissingItem[] {
  const items: MissingItem[] = [];
  for (const r of openQuestions(requirements, answers, deferred)) {
    const label = r.label ?? r.id;
    if (r.target.kind === 'instruction') {
      items.push({ kind: 'job', key: 'missing.job', params: { label }, node: null, line: null, requirement: r.id });
    } else if (r.target.kind === 'var') {
      const line = varUseLine(text, r.target.name);
      items.push({ kind: 'var', key: 'missing.var', params: { name: r.target.name, label }, node: null, line, requirement: r.id });
    } else if (r.target.kind === 'input') {
      items.push({
        kind: 'input',
        key: 'missing.input',
        params: { node: r.target.node, field: r.target.field, label },
        node: r.target.node,
        line: null,
        requirement: r.id,
      });
    }
  }
  for (const name of secretNames(requirements)) {
    items.push({ kind: 'secret', key: 'missing.secret', params: { name }, node: null, line: null, requirement: null });
  }
  for (const f of findings.filter((f) => f.severity === 'error')) {
    items.push({ kind: 'error', key: 'missing.error', params: { message: f.message }, node: f.node, line: f.line, requirement: null });
  }
  return items;
}

// What the requirements chat's answers fill in a plan — vars and node inputs — shown as a
// preview beside the chat before and after they are applied to the text.
import type { DesignRequirement } from '../api/types/DesignRequirement';
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';
import { isAnswered, type Answers } from './chat';

export interface Fill {
  kind: 'var' | 'input';
  /** `vars.NAME` or `NODE.FIELD`. */
  path: string;
  /** The node whose input it fills (for "go to node"). */
  node: string | null;
  requirement: string;
  value: Json;
}

/** Each answered requirement's place in the plan and its value, in the requirements' order. */
export function fillsOf(requirements: DesignRequirement[], answers: Answers): Fill[] {
  const fills: Fill[] = [];
  for (const r of requirements) {
    if (!isAnswered(answers, r.id)) continue;
    const value = answers[r.id] ?? null;
    if (r.target.kind === 'var') fills.push({ kind: 'var', path: `vars.${r.target.name}`, node: null, requirement: r.id, value });
    else if (r.target.kind === 'input') {
      fills.push({ kind: 'input', path: `${r.target.node}.${r.target.field}`, node: r.target.node, requirement: r.id, value });
    }
  }
  return fills;
}

/** A value as one line of the preview: text as it is, others as JSON, cut with an ellipsis past `max`. */
export function valueLine(value: Json, max = 80): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// An escalation: the task loop of a browser node gave the decision back to the person. Its
// `input_requested` is a `collect` form whose context holds the situation report
// (`{escalation: SituationReport}`) and whose `choice` field lists the choices offered; the
// answer is `{choice}`, plus `detail` (required) for "more detail". This reads the request and
// checks and builds the answer; `EscalationForm.svelte` draws it.
import type { EscalationChoice } from '../api/types/EscalationChoice';
import type { ReportItem } from '../api/types/ReportItem';
import type { SituationReport } from '../api/types/SituationReport';
import type { InputAnswer, InputRequest } from './inputRequest';

/** Seed 003's five choices, after the two that answer an effect not seen, in the order they are offered. */
export const ESCALATION_CHOICES: readonly EscalationChoice[] = [
  'it_was_done',
  'do_again',
  'more_detail',
  'alternative_approach',
  'accept_partial',
  'technical_analysis',
  'cancel',
];

export const CHOICE_FIELD = 'choice';
export const DETAIL_FIELD = 'detail';

export interface Escalation {
  report: SituationReport;
  /** The choices offered now, in order (an alternative only while one is left; the analysis once). */
  choices: EscalationChoice[];
  /** The engine's example of useful detail, when it gave one. */
  detailHint: string | null;
  /** The message the engine wrote (shown when the report cannot say it better). */
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function isItem(v: unknown): v is ReportItem {
  return isObject(v) && typeof v.description === 'string' && typeof v.detail === 'string' && typeof v.objective === 'number';
}

export function isChoice(v: unknown): v is EscalationChoice {
  return typeof v === 'string' && (ESCALATION_CHOICES as readonly string[]).includes(v);
}

/** The situation report of a request, when it is an escalation (`context.escalation`); null otherwise. */
export function reportOf(request: InputRequest): SituationReport | null {
  if (request.mode === 'confirm' || !isObject(request.context)) return null;
  const r = request.context.escalation;
  if (!isObject(r) || typeof r.request !== 'string' || typeof r.satisfaction !== 'number') return null;
  const list = <T>(v: unknown, ok: (x: unknown) => x is T): T[] => (Array.isArray(v) ? v.filter(ok) : []);
  return {
    request: r.request,
    iterations: typeof r.iterations === 'number' ? r.iterations : 0,
    max_iterations: typeof r.max_iterations === 'number' ? r.max_iterations : 0,
    satisfaction: r.satisfaction,
    achieved: list(r.achieved, isItem),
    missing: list(r.missing, isItem),
    tried: list(r.tried, (x): x is string => typeof x === 'string'),
    choices: list(r.choices, isChoice),
    analysis: typeof r.analysis === 'string' && r.analysis !== '' ? r.analysis : null,
  };
}

/** The escalation a request asks about, or null when it is an ordinary form. */
export function escalationOf(request: InputRequest): Escalation | null {
  const report = reportOf(request);
  if (!report || request.mode === 'confirm') return null;
  const field = request.requirements.find((r) => r.id === CHOICE_FIELD);
  const detail = request.requirements.find((r) => r.id === DETAIL_FIELD);
  // The form's options are what the engine accepts; the report's list says the same.
  const offered = field?.options?.length ? field.options : report.choices;
  const choices = ESCALATION_CHOICES.filter((c) => offered.includes(c));
  return { report, choices, detailHint: detail?.hint ?? null, message: request.message };
}

export type EscalationProblem = 'choose' | 'detailRequired';

export type EscalationCheck =
  | { ok: true; answer: InputAnswer }
  | { ok: false; problems: Partial<Record<typeof CHOICE_FIELD | typeof DETAIL_FIELD, EscalationProblem>> };

/** The answer to send for a choice (and the detail, sent with "more detail" only), or what is missing. */
export function escalationAnswer(escalation: Escalation, choice: string | null, detail: string): EscalationCheck {
  if (!choice || !escalation.choices.includes(choice as EscalationChoice)) return { ok: false, problems: { choice: 'choose' } };
  if (choice === 'more_detail') {
    const text = detail.trim();
    if (text === '') return { ok: false, problems: { detail: 'detailRequired' } };
    return { ok: true, answer: { choice, detail: text } };
  }
  return { ok: true, answer: { choice } };
}

/** The file name of an artifact path (`…/export/analysis-1.md` → `analysis-1.md`). */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

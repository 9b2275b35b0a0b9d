// The requirements chat of the Design tab, as pure state: which question comes next, what the
// chat shows for a question and an answer, and the answers kept by requirement id. Secrets are
// never asked: they are named, and their values are given where secrets live.
import type { ChatMessage } from '../api/types/ChatMessage';
import type { DesignRequirement } from '../api/types/DesignRequirement';
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';

/** Answers given in the chat, by requirement id (a draft's session keeps them). */
export type Answers = { [id in string]: Json };

/** Whether the chat asks it (a secret is named instead). */
export function isAsked(r: DesignRequirement): boolean {
  return r.target.kind !== 'secret';
}

/**
 * The question the chat asks now: the one asked last when it is still open (a changed answer,
 * one picked from the Missing panel), else the first open one.
 */
export function currentQuestion(
  requirements: DesignRequirement[],
  answers: Answers,
  deferred: readonly string[],
  chat: readonly ChatMessage[],
): DesignRequirement | null {
  const open = openQuestions(requirements, answers, deferred);
  const last = chat[chat.length - 1];
  const asked = last && last.from === 'studio' ? open.find((r) => r.id === last.requirement) : undefined;
  return asked ?? open[0] ?? null;
}

/** Whether an answer has been given (an empty text is none). */
export function isAnswered(answers: Answers, id: string): boolean {
  const v = answers[id];
  return v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
}

/** The questions still open, in the plan's order: asked, unanswered, not moved to run time. */
export function openQuestions(requirements: DesignRequirement[], answers: Answers, deferred: readonly string[] = []): DesignRequirement[] {
  return requirements.filter((r) => isAsked(r) && !isAnswered(answers, r.id) && !deferred.includes(r.id));
}

/** The secrets a plan uses, by name. */
export function secretNames(requirements: DesignRequirement[]): string[] {
  return requirements.flatMap((r) => (r.target.kind === 'secret' ? [r.target.name] : []));
}

/** The words an answer is shown with, in the person's language. */
export interface AnswerWords {
  yes: string;
  no: string;
  rows: (n: number) => string;
}

/** An answer as the chat shows it: yes / no, a table's row count, a list joined, text as it is. */
export function answerText(value: Json, words: AnswerWords): string {
  if (value === true) return words.yes;
  if (value === false) return words.no;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    return value.every((v) => v !== null && typeof v === 'object') ? words.rows(value.length) : value.map(String).join(', ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The chat's line asking `r`: its label, then its description. */
export function questionMessage(r: DesignRequirement): ChatMessage {
  const text = [r.label ?? r.id, r.description].filter((s) => s && s.trim() !== '').join('\n');
  return { from: 'studio', text, requirement: r.id };
}

/** The chat with `r` asked, unless it is the question asked last and not answered yet. */
export function withQuestion(chat: ChatMessage[], r: DesignRequirement): ChatMessage[] {
  const last = chat[chat.length - 1];
  if (last && last.from === 'studio' && last.requirement === r.id) return chat;
  return [...chat, questionMessage(r)];
}

/** The chat and answers after the person answers `r` with `value` (shown as `text`). */
export function withAnswer(
  chat: ChatMessage[],
  answers: Answers,
  r: DesignRequirement,
  value: Json,
  text: string,
): { chat: ChatMessage[]; answers: Answers } {
  return {
    chat: [...withQuestion(chat, r), { from: 'person', text, requirement: r.id }],
    answers: { ...answers, [r.id]: value },
  };
}

/** The answers without `id`: the question is asked again (a changed answer). */
export function withoutAnswer(answers: Answers, id: string): Answers {
  return Object.fromEntries(Object.entries(answers).filter(([key]) => key !== id));
}

/** An earlier answer as the field's text again (a changed answer starts from it); a table starts empty. */
export function answerField(value: Json | undefined): string {
  if (value === undefined || value === null || Array.isArray(value) || typeof value === 'object') return '';
  return String(value);
}

/**
 * Whether every question about the job itself (what to read, do, write) is answered: the plan is
 * then designed again with those answers added to the instruction.
 */
export function jobQuestionsAnswered(requirements: DesignRequirement[], answers: Answers): boolean {
  const job = requirements.filter((r) => r.target.kind === 'instruction');
  return job.length > 0 && job.every((r) => isAnswered(answers, r.id));
}

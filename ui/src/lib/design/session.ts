// The Design tab's session — instruction, documents, templates, pins, chat, the latest
// generation — kept with a draft (`save_design_session`), and what a generation is asked with.
import type { DesignSession } from '../api/types/DesignSession';
import type { GenerateRequest } from '../api/types/GenerateRequest';
import type { TemplateMode } from '../api/types/TemplateMode';

/** The most characters of instruction the design engine reads (planwright_design::MAX_INSTRUCTION_CHARS). */
export const MAX_INSTRUCTION_CHARS = 20_000;

export function emptySession(): DesignSession {
  return { instruction: '', documents: [], templates: [], apply_mode: 'compose', pinned: [], answers: {}, at_run_time: [], chat: [], generation: null };
}

const MODES: readonly TemplateMode[] = ['compose', 'hint', 'llm-only'];

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** A session as read back (from the server or this browser's storage): what is missing or of the wrong kind is left empty. */
export function restoreSession(raw: unknown): DesignSession {
  const s = emptySession();
  if (!raw || typeof raw !== 'object') return s;
  const o = raw as Partial<Record<keyof DesignSession, unknown>>;
  if (typeof o.instruction === 'string') s.instruction = o.instruction;
  if (Array.isArray(o.documents)) s.documents = o.documents.filter((d) => d && typeof d === 'object' && typeof d.name === 'string');
  s.templates = strings(o.templates);
  if (MODES.includes(o.apply_mode as TemplateMode)) s.apply_mode = o.apply_mode as TemplateMode;
  s.pinned = strings(o.pinned);
  s.at_run_time = strings(o.at_run_time);
  if (o.answers && typeof o.answers === 'object' && !Array.isArray(o.answers)) s.answers = o.answers as DesignSession['answers'];
  if (Array.isArray(o.chat)) {
    s.chat = o.chat.filter((m) => m && typeof m === 'object' && typeof m.text === 'string' && (m.from === 'studio' || m.from === 'person'));
  }
  if (o.generation && typeof o.generation === 'object' && typeof (o.generation as { text?: unknown }).text === 'string') {
    s.generation = o.generation as DesignSession['generation'];
  }
  return s;
}

/** What a generation is asked with: the session's choices, documents that were read, answers given. */
export function generateRequest(s: DesignSession): GenerateRequest {
  return {
    instruction: s.instruction,
    documents: s.documents.filter((d) => d.skipped === null).map((d) => d.name),
    templates: s.templates,
    apply_mode: s.apply_mode,
    pinned: s.pinned,
    answers: s.answers,
  };
}

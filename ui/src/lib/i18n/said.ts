// Messages that come as codes with parameters — an API error's `said` (`ApiMessage`), a run
// event's `said` (`RunMessage`), a design's notes (`DesignNote`) — said in the person's language:
// `api.said.<key>`, `run.said.<key>` and `design.said.<key>` of the catalogs. Without a code (an older record, a block's own words from a
// page or a server) or with one this UI does not know (a newer server), the English text the
// message came with is shown as it is.
import type { ApiErrorCode } from '../api/transport';
import type { EvidencePart } from '../api/types/EvidencePart';
import { en, type MessageKey } from './en';
import { format, paramsOf, type Lang, type Param } from './messages';

/** A coded message as the API and the run record send it. */
export interface Said {
  key: string;
  params?: Record<string, Param>;
}

/**
 * `said` in `lang`, or null when there is no code or no text for it, or when it lacks a
 * parameter the text uses (a message recorded before the parameter was added).
 */
export function sayCoded(lang: Lang, kind: 'api' | 'run' | 'design', said: Said | null | undefined): string | null {
  if (!said) return null;
  const key = `${kind}.said.${said.key}`;
  if (!(key in en)) return null;
  const params = said.params ?? {};
  if (paramsOf(en[key as MessageKey]).some((p) => !(p in params))) return null;
  return format(lang, key as MessageKey, params);
}

/**
 * The codes that frame words of their own by their kind — a block's error, an objective not
 * reached, a recovery that failed: a line in the person's language over those words. In English
 * the words say more than the line.
 */
const FRAMES = new Set(['block_input_invalid', 'block_failed', 'block_not_set_up', 'block_no_answer', 'objective_not_reached', 'blocker_stayed']);

/**
 * A run's message (an error, a reason, a log line) in `lang`, else its English text. With
 * `titleOf`, a block named in it is called by its title in `lang` (`titleOf` gives '' for a block
 * it does not know, which keeps the block's id).
 */
export function sayRun(lang: Lang, english: string, said: Said | null | undefined, titleOf?: (block: string) => string): string {
  if (lang === 'en' && said && FRAMES.has(said.key)) return english;
  const block = said?.params?.block;
  const title = typeof block === 'string' && titleOf ? titleOf(block) : '';
  const named = title && said ? { ...said, params: { ...said.params, block: title } } : said;
  return sayCoded(lang, 'run', named) ?? english;
}

/**
 * Run messages said one after the other in `lang`, joined by `separator`; `english` when there
 * are none or one this UI does not know (the codes never say less than the words).
 */
export function sayAll(lang: Lang, english: string, said: readonly Said[] | null | undefined, separator: string): string {
  const coded = (said ?? []).map((s) => sayCoded(lang, 'run', s));
  if (!coded.length || coded.some((c) => c === null)) return english;
  return coded.join(separator);
}

/**
 * The runner's words as it wrote them in English (they say more than the codes: the element,
 * the page), its codes said one after the other in another language; as the report's
 * `Words::all` with no separator.
 */
export function sayWords(lang: Lang, english: string, said: readonly Said[] | null | undefined): string {
  return lang === 'en' ? english : sayAll(lang, english, said, '');
}

/**
 * A step's evidence in `lang`. When the runner kept it piece by piece, each piece it wrote in its
 * own words is said in `lang` (an action, then what it brought about); a piece from elsewhere (a
 * model's words) stays as it is. Otherwise as `sayRun` says it.
 */
export function sayEvidence(lang: Lang, english: string, said: Said | null | undefined, parts: readonly EvidencePart[] | null | undefined): string {
  if (!parts?.length) return sayRun(lang, english, said);
  const pieces = parts.map((part) => sayAll(lang, part.text, part.said, lang === 'ja' ? '。' : ': '));
  if (lang !== 'ja') return pieces.join('; ');
  const joined = pieces.join('。');
  return /[。.!?！？]$/.test(joined) ? joined : `${joined}。`;
}

/**
 * What an API error says and what fixes it, in `lang`: the coded text holds both, so the English
 * hint goes with the English message only. An error without a code (a rare fault) is framed by
 * its kind in the person's language, its English words kept inside.
 */
export function sayApiError(
  lang: Lang,
  error: { code: ApiErrorCode; message: string; hint: string | null; said: Said | null },
): { message: string; hint: string | null } {
  const coded = sayCoded(lang, 'api', error.said);
  if (coded !== null) return { message: coded, hint: null };
  if (lang === 'en') return { message: error.message, hint: error.hint };
  return { message: format(lang, `api.kind.${error.code}` as MessageKey, { detail: error.message }), hint: error.hint };
}

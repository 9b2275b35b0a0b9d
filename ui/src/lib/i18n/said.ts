// Messages that come as codes with parameters — an API error's `said` (`ApiMessage`), a run
// event's `said` (`RunMessage`) — said in the person's language: `api.said.<key>` and
// `run.said.<key>` of the catalogs. Without a code (an older record, a block's own words from a
// page or a server) or with one this UI does not know (a newer server), the English text the
// message came with is shown as it is.
import { en, type MessageKey } from './en';
import { format, type Lang } from './messages';

/** A coded message as the API and the run record send it. */
export interface Said {
  key: string;
  params?: Record<string, string | number>;
}

/** `said` in `lang`, or null when there is no code or no text for it. */
export function sayCoded(lang: Lang, kind: 'api' | 'run', said: Said | null | undefined): string | null {
  if (!said) return null;
  const key = `${kind}.said.${said.key}`;
  if (!(key in en)) return null;
  return format(lang, key as MessageKey, said.params ?? {});
}

/** A run's message (an error, a reason, a log line) in `lang`, else its English text. */
export function sayRun(lang: Lang, english: string, said: Said | null | undefined): string {
  return sayCoded(lang, 'run', said) ?? english;
}

/**
 * What an API error says and what fixes it, in `lang`: the coded text holds both, so the English
 * hint goes with the English message only.
 */
export function sayApiError(lang: Lang, error: { message: string; hint: string | null; said: Said | null }): { message: string; hint: string | null } {
  const coded = sayCoded(lang, 'api', error.said);
  return coded === null ? { message: error.message, hint: error.hint } : { message: coded, hint: null };
}

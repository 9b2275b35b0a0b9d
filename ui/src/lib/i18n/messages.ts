// Pure helpers of the i18n layer (no Svelte), so they can be tested in node.
import { en, type MessageKey } from './en';
import { ja } from './ja';

export type Lang = 'en' | 'ja';
export const catalogs: Record<Lang, Record<MessageKey, string>> = { en, ja };

/** The language for a setting (`system` follows `navigator.language`). */
export function resolveLang(setting: string | null | undefined, systemLanguage: string | undefined): Lang {
  if (setting === 'en' || setting === 'ja') return setting;
  return (systemLanguage ?? '').toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

const pluralRules: Partial<Record<Lang, Intl.PluralRules>> = {};

/** The plural category of `n` in `lang` (`one`, `other` …; Japanese has only `other`). */
function pluralOf(lang: Lang, n: number): string {
  return (pluralRules[lang] ??= new Intl.PluralRules(lang)).select(n);
}

/**
 * Fills a message: `{name}` takes the parameter; `{n, plural, one {# error} other {# errors}}`
 * (the ICU form, without nesting) picks the form for the number `n` in `lang` — an `=0`/`=1`
 * exact match first, then its plural category, then `other` — with `#` standing for the number.
 */
export function format(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  const text = catalogs[lang][key] ?? en[key] ?? key;
  const plurals = text.replace(/\{(\w+),\s*plural,((?:\s*=?\w+\s*\{[^{}]*\})+)\s*\}/g, (m, name: string, body: string) => {
    if (!(name in params)) return m;
    const n = Number(params[name]);
    const forms = new Map([...body.matchAll(/(=?\w+)\s*\{([^{}]*)\}/g)].map((f) => [f[1]!, f[2]!]));
    const form = forms.get(`=${n}`) ?? forms.get(pluralOf(lang, n)) ?? forms.get('other') ?? '';
    return form.replace(/#/g, String(params[name]));
  });
  return plurals.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** A `{en, ja}` text from the catalog in the current language (falls back to the other one). */
export function pick(lang: Lang, text: { en: string; ja: string } | null | undefined): string {
  if (!text) return '';
  return (lang === 'ja' ? text.ja || text.en : text.en || text.ja) ?? '';
}

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

const PLACEHOLDER = /\{(\w+)\}/g;
/** `{name, plural|select, key {form} …}`; a form holds text and `{name}`s. */
const CHOICE = /\{(\w+),\s*(plural|select),((?:\s*=?\w+\s*\{(?:[^{}]|\{\w+\})*\})+)\s*\}/g;
const FORM = /(=?\w+)\s*\{((?:[^{}]|\{\w+\})*)\}/g;

/** A parameter's value: text, a number, or a flag (`true`/`false`, chosen between with select). */
export type Param = string | number | boolean;

/**
 * Fills a message: `{name}` takes the parameter; `{n, plural, one {# error} other {# errors}}`
 * (the ICU form) picks the form for the number `n` in `lang` — an `=0`/`=1` exact match first,
 * then its plural category, then `other` — with `#` standing for the number;
 * `{side, select, left {left} other {right}}` picks the form named by the value (a flag's is
 * `true`/`false`), else `other`. A form may hold `{name}` placeholders, not another choice.
 */
export function format(lang: Lang, key: MessageKey, params: Record<string, Param> = {}): string {
  const text = catalogs[lang][key] ?? en[key] ?? key;
  const chosen = text.replace(CHOICE, (m, name: string, kind: string, body: string) => {
    if (!(name in params)) return m;
    const value = params[name]!;
    const forms = new Map([...body.matchAll(FORM)].map((f) => [f[1]!, f[2]!]));
    if (kind === 'select') return forms.get(String(value)) ?? forms.get('other') ?? '';
    const n = Number(value);
    const form = forms.get(`=${n}`) ?? forms.get(pluralOf(lang, n)) ?? forms.get('other') ?? '';
    return form.replace(/#/g, String(value));
  });
  return chosen.replace(PLACEHOLDER, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** The parameters a message uses: its `{name}`s, the arguments of its choices, and the `{name}`s in their forms. */
export function paramsOf(text: string): string[] {
  const names = new Set<string>();
  const rest = text.replace(CHOICE, (_m, name: string, _kind: string, body: string) => {
    names.add(name);
    for (const form of body.matchAll(FORM)) for (const p of form[2]!.matchAll(PLACEHOLDER)) names.add(p[1]!);
    return '';
  });
  for (const p of rest.matchAll(PLACEHOLDER)) names.add(p[1]!);
  return [...names].sort();
}

/** A `{en, ja}` text from the catalog in the current language (falls back to the other one). */
export function pick(lang: Lang, text: { en: string; ja: string } | null | undefined): string {
  if (!text) return '';
  return (lang === 'ja' ? text.ja || text.en : text.en || text.ja) ?? '';
}

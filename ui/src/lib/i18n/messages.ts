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

export function format(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  const text = catalogs[lang][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** A `{en, ja}` text from the catalog in the current language (falls back to the other one). */
export function pick(lang: Lang, text: { en: string; ja: string } | null | undefined): string {
  if (!text) return '';
  return (lang === 'ja' ? text.ja || text.en : text.en || text.ja) ?? '';
}

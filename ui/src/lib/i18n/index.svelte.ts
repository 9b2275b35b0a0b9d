// The studio's language: follows the system locale until Settings choose one.
import type { MessageKey } from './en';
import { format, pick, resolveLang, type Lang } from './messages';

export type { MessageKey, Lang };

const systemLanguage = typeof navigator === 'undefined' ? 'en' : navigator.language;

const state = $state<{ setting: 'system' | 'en' | 'ja' }>({ setting: 'system' });

export const i18n = {
  get setting() {
    return state.setting;
  },
  set setting(value: 'system' | 'en' | 'ja') {
    state.setting = value;
  },
  get lang(): Lang {
    return resolveLang(state.setting, systemLanguage);
  },
  get systemLang(): Lang {
    return resolveLang('system', systemLanguage);
  },
};

export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return format(i18n.lang, key, params);
}

export function tl(text: { en: string; ja: string } | null | undefined): string {
  return pick(i18n.lang, text);
}

$effect.root(() => {
  $effect(() => {
    if (typeof document !== 'undefined') document.documentElement.lang = i18n.lang;
  });
});

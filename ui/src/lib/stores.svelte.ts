// State shared by the tabs: notifications, the settings, the theme.
import type { StudioSettings } from './api/types/StudioSettings';
import type { Theme } from './api/types/Theme';
import { ApiError } from './api/transport';
import { i18n } from './i18n/index.svelte';
import { sayApiError } from './i18n/said';

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info';
  title: string;
  message?: string;
  hint?: string | null;
}

let nextId = 1;
export const toasts = $state<Toast[]>([]);

export function notify(t: Omit<Toast, 'id'>, ms = t.kind === 'error' ? 9000 : 4000): void {
  const id = nextId++;
  toasts.push({ ...t, id });
  if (ms > 0) setTimeout(() => dismiss(id), ms);
}

export function dismiss(id: number): void {
  const i = toasts.findIndex((t) => t.id === id);
  if (i >= 0) toasts.splice(i, 1);
}

/** An error as a notification: what happened in plain words, and what to do. */
export function notifyError(title: string, e: unknown): void {
  const err = e instanceof ApiError ? e : new ApiError('internal', e instanceof Error ? e.message : String(e));
  // In the person's language when the error comes with its code; else the English it came with.
  const { message, hint } = sayApiError(i18n.lang, err);
  notify({ kind: 'error', title, message, hint });
}

export const studio = $state<{ settings: StudioSettings | null; theme: Theme }>({ settings: null, theme: 'system' });

export function applyTheme(theme: Theme): void {
  studio.theme = theme;
  const dark =
    theme === 'dark' || (theme === 'system' && typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

if (typeof matchMedia !== 'undefined') {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (studio.theme === 'system') applyTheme('system');
  });
}

/**
 * Moving between tabs from inside one: `tab` is the tab to show (the app shows it and clears the
 * request); `fix` a plan to open in the Design tab at one of its nodes ("fix in Design" on a
 * failed node of a run), taken by the Design tab; `registered` the file of the plan the Design
 * tab registered last, which the Run tab chooses when it is next shown.
 */
export const navigation = $state<{
  tab: 'design' | 'run' | 'settings' | null;
  fix: { text: string; node: string } | null;
  registered: string | null;
}>({
  tab: null,
  fix: null,
  registered: null,
});

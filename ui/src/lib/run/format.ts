// Figures of a run as people read them, in the studio's language: durations, counts, tokens,
// percentages and times of day. Pure (the language is a parameter), so tests pin each form.
import { format, type Lang } from '../i18n/messages';

const numberFormats: Partial<Record<string, Intl.NumberFormat>> = {};

function numberFormat(lang: Lang, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${lang}:${JSON.stringify(options)}`;
  return (numberFormats[key] ??= new Intl.NumberFormat(lang === 'ja' ? 'ja-JP' : 'en-US', options));
}

/** A count with the locale's grouping: `12,345`. */
export function formatNumber(n: number, lang: Lang): string {
  return numberFormat(lang).format(n);
}

/** A share from 0 to 1 as a whole percentage: `0.4` → `40%`. */
export function formatPercent(fraction: number, lang: Lang): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return numberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(clamped);
}

/**
 * A duration, as precise as it is useful: `850 ms`, `1.8 s`, `12 s`, `2 min 5 s`, `1 h 2 min`
 * (in Japanese `850 ミリ秒`, `1.8 秒`, `2 分 5 秒`, `1 時間 2 分`).
 */
export function formatDuration(ms: number, lang: Lang): string {
  const n = Math.max(0, Math.round(Number.isFinite(ms) ? ms : 0));
  if (n < 1000) return format(lang, 'duration.ms', { n: formatNumber(n, lang) });
  if (n < 10_000) {
    return format(lang, 'duration.s', { n: numberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.floor(n / 100) / 10) });
  }
  const seconds = Math.floor(n / 1000);
  if (seconds < 60) return format(lang, 'duration.s', { n: formatNumber(seconds, lang) });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return format(lang, 'duration.minS', { m: formatNumber(minutes, lang), s: formatNumber(seconds % 60, lang) });
  return format(lang, 'duration.hMin', { h: formatNumber(Math.floor(minutes / 60), lang), m: formatNumber(minutes % 60, lang) });
}

/** Tokens used: `1,234 tokens` (`1,234 トークン`); `null` when none were (said otherwise). */
export function formatTokens(input: number, output: number, lang: Lang): string | null {
  const total = input + output;
  if (total <= 0) return null;
  // The plural is chosen from the grouped text: `1` → one, `1,234` (not a plain number) → other.
  return format(lang, 'tokens.total', { n: formatNumber(total, lang) });
}

/** The time of day of an RFC 3339 instant, to the second, in the viewer's time zone. */
export function formatClock(iso: string, lang: Lang, timeZone?: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  return new Intl.DateTimeFormat(lang === 'ja' ? 'ja-JP' : 'en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZone }).format(ms);
}

/** Date and time of an RFC 3339 instant, for headers: `Nov 27, 2026, 04:44:08`. */
export function formatDateTime(iso: string, lang: Lang, timeZone?: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  return new Intl.DateTimeFormat(lang === 'ja' ? 'ja-JP' : 'en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    timeZone,
  }).format(ms);
}

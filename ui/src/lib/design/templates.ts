// The template gallery's filter: words searched in a template's id, title, description and tags
// (both languages), and tags chosen.
import type { TemplateInfo } from '../api/types/TemplateInfo';
import type { Lang } from '../i18n/messages';

export function templateMatches(t: TemplateInfo, query: string, tags: readonly string[], lang: Lang): boolean {
  const own = lang === 'ja' ? t.tags.ja : t.tags.en;
  if (tags.some((tag) => !own.includes(tag))) return false;
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  const haystack = [t.id, t.category, t.title.en, t.title.ja, t.description.en, t.description.ja, ...t.tags.en, ...t.tags.ja]
    .join(' ')
    .toLowerCase();
  return words.every((w) => haystack.includes(w));
}

/** Every tag of the templates in `lang`, most used first. */
export function allTags(templates: TemplateInfo[], lang: Lang): string[] {
  const counts = new Map<string, number>();
  for (const t of templates) for (const tag of lang === 'ja' ? t.tags.ja : t.tags.en) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tag]) => tag);
}

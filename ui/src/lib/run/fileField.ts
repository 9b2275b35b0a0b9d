// File fields of human-input forms. Inside the desktop app (Tauri transport) the path text box
// gets a "Choose…" button that opens the system's file dialog (`@tauri-apps/plugin-dialog`,
// allowed by `dialog:allow-open` in src-tauri/capabilities); in a browser there is no way to get
// a path on the server's machine from a file picker, so the text box stays alone.
import type { TransportKind } from '../api/transport';

export interface FileControl {
  /** The path text box: always there (it can be typed, or pasted, in both). */
  text: true;
  /** The "Choose…" button that opens the system file dialog. */
  choose: boolean;
}

export function fileControl(kind: TransportKind): FileControl {
  return { text: true, choose: kind === 'tauri' };
}

export interface DialogFilter {
  name: string;
  extensions: string[];
}

/** The dialog's filter for a requirement's `accept` (`.csv, xlsx` → `csv`, `xlsx`); none when it accepts anything. */
export function dialogFilters(accept: string | null | undefined): DialogFilter[] {
  const extensions = [
    ...new Set(
      (accept ?? '')
        .split(',')
        .map((e) => e.trim().replace(/^\*?\./, '').toLowerCase())
        .filter((e) => e !== '' && e !== '*'),
    ),
  ];
  return extensions.length > 0 ? [{ name: extensions.map((e) => `.${e}`).join(', '), extensions }] : [];
}

/** The path the dialog gave, or null when it was cancelled. */
export function chosenPath(result: string | string[] | null): string | null {
  if (Array.isArray(result)) return result[0] ?? null;
  return result;
}

/** Opens the desktop app's file dialog for one file; null when the person cancels. */
export async function chooseFile(opts: { accept?: string | null; title?: string; defaultPath?: string | null }): Promise<string | null> {
  const { open } = await import('@tauri-apps/plugin-dialog');
  const filters = dialogFilters(opts.accept);
  const result = await open({
    multiple: false,
    directory: false,
    title: opts.title,
    defaultPath: opts.defaultPath ?? undefined,
    ...(filters.length > 0 ? { filters } : {}),
  });
  return chosenPath(result);
}

/**
 * A chosen file as a plan writes it: its path relative to the work folder (`data/in.xlsx`), or
 * null when it is outside the folder (a plan's paths resolve against the work folder, so a file
 * elsewhere would not be found on another machine or by a scheduled run).
 */
export function inWorkFolder(path: string, workspace: string | null | undefined): string | null {
  if (!workspace) return null;
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const root = norm(workspace);
  const file = norm(path);
  // Windows paths compare without regard to case, as the file system does.
  const same = /^[A-Za-z]:\//.test(root) ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase() : (a: string, b: string) => a === b;
  if (file.length <= root.length + 1 || !same(file.slice(0, root.length), root) || file[root.length] !== '/') return null;
  const relative = file.slice(root.length + 1);
  return relative.split('/').includes('..') ? null : relative;
}

// Reference documents in the Design tab: which files are taken, how a file's bytes travel
// (base64 in `upload_document`), and how a document is summed up in its row.
import type { DocumentInfo } from '../api/types/DocumentInfo';

/** The kinds the design engine reads (crates/api: DOCUMENT_EXTENSIONS). */
export const DOCUMENT_ACCEPT = '.txt,.md,.pdf,.docx,.xlsx';

/** The largest file the studio takes (crates/api: MAX_DOCUMENT_BYTES). */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

export function acceptedName(name: string): boolean {
  const ext = name.toLowerCase().match(/\.[^.]+$/)?.[0] ?? '';
  return DOCUMENT_ACCEPT.split(',').includes(ext);
}

/** Bytes as base64, in chunks (a large file would overflow `String.fromCharCode(...all)`). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `820 B`, `12 KB`, `1.4 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The list with `info` in it: a document of the same name is replaced, a new one added last. */
export function withDocument(list: DocumentInfo[], info: DocumentInfo): DocumentInfo[] {
  return list.some((d) => d.name === info.name) ? list.map((d) => (d.name === info.name ? info : d)) : [...list, info];
}

// Saving a text the studio made (a run's report) or a file a run wrote: in a browser, a download
// of its name; inside the desktop app the web view hands the same download to the system.

export interface TextFile {
  file_name: string;
  media_type: string;
  text: string;
}

/** The file's name as saved: its own, with anything a file system refuses replaced. */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').replace(/^\.+/, '').trim();
  return cleaned === '' ? 'report' : cleaned;
}

export function saveTextFile(file: TextFile, doc: Document = document): void {
  saveBlob(file.file_name, new Blob([file.text], { type: `${file.media_type || 'text/plain'};charset=utf-8` }), doc);
}

/** Saves any content (a file a run wrote) under `name`. */
export function saveBlob(name: string, blob: Blob, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = safeFileName(name);
  a.rel = 'noopener';
  a.style.display = 'none';
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

// A run's artifacts as the studio shows them (evidence screenshots, the technical analysis):
// fetched once per run and path with `run_artifact`, and kept — a live run redraws often, and a
// thumbnail must not fetch its image again each time. A failed fetch is not kept, so it can be
// tried again.
import type { ArtifactData } from '../api/types/ArtifactData';

export type ArtifactFetcher = (runId: string, path: string) => Promise<ArtifactData>;

export interface ArtifactCache {
  get(runId: string, path: string): Promise<ArtifactData>;
}

export function createArtifactCache(fetcher: ArtifactFetcher, limit = 200): ArtifactCache {
  const cache = new Map<string, Promise<ArtifactData>>();
  const key = (runId: string, path: string) => `${runId}\n${path}`;
  return {
    get(runId, path) {
      const k = key(runId, path);
      const hit = cache.get(k);
      if (hit) {
        // Most recently used last, so the oldest goes first when the cache is full.
        cache.delete(k);
        cache.set(k, hit);
        return hit;
      }
      const p = fetcher(runId, path).catch((e: unknown) => {
        cache.delete(k);
        throw e;
      });
      cache.set(k, p);
      while (cache.size > limit) cache.delete(cache.keys().next().value!);
      return p;
    },
  };
}

/** A `data:` URL of the artifact, for an `<img src>`. */
export function dataUrl(a: ArtifactData): string {
  return `data:${a.media_type || 'application/octet-stream'};base64,${a.base64}`;
}

/** The artifact's bytes. */
export function artifactBytes(a: ArtifactData): Uint8Array<ArrayBuffer> {
  const binary = atob(a.base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The artifact's text (UTF-8). */
export function artifactText(a: ArtifactData): string {
  return new TextDecoder('utf-8').decode(artifactBytes(a));
}

/** Whether an artifact is an image the studio can show. */
export function isImage(a: Pick<ArtifactData, 'media_type'>): boolean {
  return a.media_type.startsWith('image/');
}

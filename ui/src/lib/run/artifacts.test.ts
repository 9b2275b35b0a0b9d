import { describe, expect, it } from 'vitest';
import type { ArtifactData } from '../api/types/ArtifactData';
import { artifactText, createArtifactCache, dataUrl, isImage } from './artifacts';

const data = (path: string, media_type = 'image/png', text = 'png'): ArtifactData => ({
  path,
  media_type,
  bytes: text.length,
  base64: Buffer.from(text, 'utf8').toString('base64'),
});

describe('createArtifactCache', () => {
  it('fetches each run’s path once', async () => {
    const calls: string[] = [];
    const cache = createArtifactCache(async (run, path) => {
      calls.push(`${run}:${path}`);
      return data(path);
    });
    const [a, b] = await Promise.all([cache.get('r1', '/e/01.png'), cache.get('r1', '/e/01.png')]);
    expect(a).toBe(b);
    await cache.get('r2', '/e/01.png');
    expect(calls).toEqual(['r1:/e/01.png', 'r2:/e/01.png']);
    expect(cache.has('r1', '/e/01.png')).toBe(true);
  });

  it('forgets a failed fetch, so it can be tried again', async () => {
    let fail = true;
    const cache = createArtifactCache(async (_run, path) => {
      if (fail) throw new Error('not yet');
      return data(path);
    });
    await expect(cache.get('r', '/a.png')).rejects.toThrow('not yet');
    expect(cache.has('r', '/a.png')).toBe(false);
    fail = false;
    await expect(cache.get('r', '/a.png')).resolves.toMatchObject({ path: '/a.png' });
  });

  it('keeps at most its limit, dropping the least recently used', async () => {
    const cache = createArtifactCache(async (_run, path) => data(path), 2);
    await cache.get('r', '/1');
    await cache.get('r', '/2');
    await cache.get('r', '/1');
    await cache.get('r', '/3');
    expect([cache.has('r', '/1'), cache.has('r', '/2'), cache.has('r', '/3')]).toEqual([true, false, true]);
    cache.clear();
    expect(cache.has('r', '/1')).toBe(false);
  });
});

describe('artifact contents', () => {
  it('makes a data URL for an image and decodes text as UTF-8', () => {
    expect(dataUrl(data('/a.png'))).toBe(`data:image/png;base64,${Buffer.from('png').toString('base64')}`);
    expect(artifactText(data('/a.md', 'text/markdown', '# 技術的な分析 — ok'))).toBe('# 技術的な分析 — ok');
    expect(isImage({ media_type: 'image/png' })).toBe(true);
    expect(isImage({ media_type: 'text/markdown' })).toBe(false);
  });
});

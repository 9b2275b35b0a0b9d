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
    await cache.get('r1', '/e/01.png');
    expect(calls).toEqual(['r1:/e/01.png', 'r2:/e/01.png']);
  });

  it('forgets a failed fetch, so it can be tried again', async () => {
    let calls = 0;
    const cache = createArtifactCache(async (_run, path) => {
      calls += 1;
      if (calls === 1) throw new Error('not yet');
      return data(path);
    });
    await expect(cache.get('r', '/a.png')).rejects.toThrow('not yet');
    await expect(cache.get('r', '/a.png')).resolves.toMatchObject({ path: '/a.png' });
    expect(calls).toBe(2);
  });

  it('keeps at most its limit, dropping the least recently used', async () => {
    const calls: string[] = [];
    const cache = createArtifactCache(async (_run, path) => {
      calls.push(path);
      return data(path);
    }, 2);
    for (const path of ['/1', '/2', '/1', '/3', '/1', '/3', '/2']) await cache.get('r', path);
    // '/2' was the least recently used when '/3' came, so only it is fetched again.
    expect(calls).toEqual(['/1', '/2', '/3', '/2']);
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

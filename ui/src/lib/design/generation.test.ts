import { describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../api/types/GenerationEvent';
import type { GenerationResult } from '../api/types/GenerationResult';
import type { WatchHandlers } from '../api/transport';
import { Generation } from './generation.svelte';

/** A transport's side of one generation: the test sends its events and sees whether it was stopped. */
function server() {
  let handlers: WatchHandlers<GenerationEvent> | null = null;
  const seen = { started: 0, stopped: 0 };
  const api = {
    startGeneration: async () => {
      seen.started++;
      return { generation: 'generation-1' };
    },
    watchGeneration: (_: string, h: WatchHandlers<GenerationEvent>) => {
      handlers = h;
      return () => {
        seen.stopped++;
      };
    },
  };
  return { api, seen, send: (e: GenerationEvent) => handlers!.onEvent(e), end: () => handlers!.onEnd?.() };
}

const result = { plan_id: 'p', text: 'id: p\n' } as GenerationResult;

describe('a generation', () => {
  it('lists its steps, hands over its result, and ends', async () => {
    const s = server();
    const run = new Generation(s.api);
    const done: GenerationResult[] = [];
    await run.start({ instruction: 'x', documents: [], templates: [], apply_mode: 'compose', pinned: [], answers: {} }, { done: (r) => done.push(r), failed: () => undefined });
    expect(run.running).toBe(true);
    s.send({ type: 'progress', step: { stage: 'candidates' } });
    s.send({ type: 'progress', step: { stage: 'offline' } });
    expect(run.progress.map((r) => [r.id, r.state])).toEqual([
      ['candidates', 'done'],
      ['offline', 'active'],
    ]);
    s.send({ type: 'done', result });
    s.end();
    expect(done).toEqual([result]);
    expect(run.running).toBe(false);
    expect(run.progress.every((r) => r.state === 'done')).toBe(true);
  });

  it('once cancelled, stops the stream and takes nothing more from it', async () => {
    const s = server();
    const run = new Generation(s.api);
    const done: GenerationResult[] = [];
    await run.start({ instruction: 'x', documents: [], templates: [], apply_mode: 'compose', pinned: [], answers: {} }, { done: (r) => done.push(r), failed: () => undefined });
    s.send({ type: 'progress', step: { stage: 'skeleton' } });
    expect(run.cancel()).toBe(true);
    expect(s.seen.stopped).toBe(1);
    s.send({ type: 'done', result });
    expect(done).toEqual([]);
    expect(run.running).toBe(false);
    expect(run.steps).toEqual([]);
    expect(run.cancel()).toBe(false);
  });

  it('says why it failed', async () => {
    const s = server();
    const run = new Generation(s.api);
    const failed: string[] = [];
    await run.start({ instruction: 'x', documents: [], templates: [], apply_mode: 'compose', pinned: [], answers: {} }, { done: () => undefined, failed: (e) => failed.push(e.message) });
    s.send({ type: 'failed', error: { code: 'invalid_input', message: 'the instruction is empty', hint: null } as never });
    expect(failed).toEqual(['the instruction is empty']);
  });
});

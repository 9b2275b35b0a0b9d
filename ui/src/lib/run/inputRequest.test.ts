import { describe, expect, it } from 'vitest';
import { readInputRequest } from './inputRequest';

describe('readInputRequest', () => {
  it('reads a form request and its requirements', () => {
    const r = readInputRequest({
      mode: 'collect',
      message: 'Which month?',
      requirements: [
        { id: 'month', type: 'text', label: 'Month', required: true },
        { id: 'file', type: 'file', accept: '.csv', validation: { regex: '.+' } },
        { id: 'kind', type: 'select', options: ['a', 1] },
        { label: 'no id' },
        'not an object',
      ],
      context: { n: 1 },
    });
    expect(r.mode).toBe('collect');
    expect(r.message).toBe('Which month?');
    expect(r.mode !== 'confirm' && r.requirements.map((q) => q.id)).toEqual(['month', 'file', 'kind']);
    expect(r.mode !== 'confirm' && r.requirements[1]).toMatchObject({ type: 'file', accept: '.csv', validation: { regex: '.+' } });
    expect(r.mode !== 'confirm' && r.requirements[2]!.options).toEqual(['a', '1']);
    expect(r.context).toEqual({ n: 1 });
  });

  it('reads a confirm request and keeps only known options', () => {
    const r = readInputRequest({ mode: 'confirm', message: 'Save?', options: { approve_label: 'Save', comment_required: true, other: 1 } });
    expect(r).toEqual({ mode: 'confirm', message: 'Save?', options: { approve_label: 'Save', comment_required: true }, context: undefined });
    const safe = readInputRequest({ mode: 'confirm', message: 'Sign off?', options: { default: 'reject' } });
    expect(safe).toMatchObject({ options: { default: 'reject' } });
    expect(readInputRequest({ mode: 'confirm', message: 'x', options: { default: 'maybe' } })).toMatchObject({ options: {} });
  });

  it('asks for a free answer when the request is not one it knows', () => {
    expect(readInputRequest('What now?')).toMatchObject({ mode: 'inquire', message: 'What now?', requirements: [] });
    expect(readInputRequest({ mode: 'strange', message: 'm' })).toMatchObject({ mode: 'inquire', message: 'm', requirements: [] });
  });
});

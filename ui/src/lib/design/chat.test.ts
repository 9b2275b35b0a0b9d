import { describe, expect, it } from 'vitest';
import type { DesignRequirement } from '../api/types/DesignRequirement';
import { answerField, answerText, currentQuestion, isAnswered, jobQuestionsAnswered, openQuestions, secretNames, withAnswer, withoutAnswer, withQuestion } from './chat';

const file: DesignRequirement = { id: 'input_file', type: 'file', label: 'The CSV file to read', accept: '.csv', required: true, target: { kind: 'var', name: 'input_file' } };
const url: DesignRequirement = { id: 'open.url', type: 'text', label: 'Start page', target: { kind: 'input', node: 'open', field: 'url' } };
const secret: DesignRequirement = { id: 'LOGIN_PASSWORD', type: 'text', label: 'Password', target: { kind: 'secret', name: 'LOGIN_PASSWORD' } };
const words = { yes: 'Yes', no: 'No', rows: (n: number) => `${n} rows` };

describe('the requirements chat', () => {
  it('asks open questions in order, never a secret, and skips what is answered or moved to run time', () => {
    const all = [file, secret, url];
    expect(openQuestions(all, {}).map((r) => r.id)).toEqual(['input_file', 'open.url']);
    expect(openQuestions(all, { input_file: 'a.csv' }).map((r) => r.id)).toEqual(['open.url']);
    expect(openQuestions(all, { input_file: '  ' }).map((r) => r.id)).toEqual(['input_file', 'open.url']);
    expect(openQuestions(all, {}, ['input_file']).map((r) => r.id)).toEqual(['open.url']);
    expect(secretNames(all)).toEqual(['LOGIN_PASSWORD']);
  });

  it('treats false and zero as answers, and empty text or null as none', () => {
    expect(isAnswered({ a: false, b: 0 }, 'a')).toBe(true);
    expect(isAnswered({ a: false, b: 0 }, 'b')).toBe(true);
    expect(isAnswered({ a: null }, 'a')).toBe(false);
    expect(isAnswered({ a: '' }, 'a')).toBe(false);
    expect(isAnswered({}, 'a')).toBe(false);
  });

  it('keeps the history: a question once, then the answer, and a changed answer asks again', () => {
    let chat = withQuestion([], file);
    chat = withQuestion(chat, file);
    expect(chat).toEqual([{ from: 'studio', text: 'The CSV file to read', requirement: 'input_file' }]);
    const answered = withAnswer(chat, {}, file, 'data/sales.csv', 'data/sales.csv');
    expect(answered.chat.map((m) => m.from)).toEqual(['studio', 'person']);
    expect(answered.answers).toEqual({ input_file: 'data/sales.csv' });
    const reopened = withoutAnswer(answered.answers, 'input_file');
    expect(openQuestions([file], reopened)).toEqual([file]);
    expect(withQuestion(answered.chat, file).length).toBe(3);
  });

  it('asks the question asked last while it is open, else the first open one', () => {
    const all = [file, url];
    expect(currentQuestion(all, {}, [], [])?.id).toBe('input_file');
    const reasked = withQuestion([], url);
    expect(currentQuestion(all, {}, [], reasked)?.id).toBe('open.url');
    expect(currentQuestion(all, { 'open.url': 'https://x' }, [], reasked)?.id).toBe('input_file');
    expect(currentQuestion(all, { input_file: 'a', 'open.url': 'b' }, [], [])).toBeNull();
  });

  it('puts an earlier answer back in its field, except a table', () => {
    expect([answerField('a.csv'), answerField(12), answerField(false), answerField(undefined)]).toEqual(['a.csv', '12', 'false', '']);
    expect(answerField([{ a: 1 }])).toBe('');
  });

  it('shows answers in words', () => {
    expect(answerText(true, words)).toBe('Yes');
    expect(answerText(false, words)).toBe('No');
    expect(answerText([{ a: 1 }, { a: 2 }], words)).toBe('2 rows');
    expect(answerText(['a', 'b'], words)).toBe('a, b');
    expect(answerText(12, words)).toBe('12');
  });

  it('designs again only when every question about the job itself is answered', () => {
    const read: DesignRequirement = { id: 'instruction.read', type: 'text', label: 'What should it read?', required: true, target: { kind: 'instruction', part: 'read' } };
    const write: DesignRequirement = { id: 'instruction.write', type: 'text', label: 'What should it write?', required: true, target: { kind: 'instruction', part: 'write' } };
    expect(jobQuestionsAnswered([read, write], { 'instruction.read': 'payments.csv' })).toBe(false);
    expect(jobQuestionsAnswered([read, write], { 'instruction.read': 'payments.csv', 'instruction.write': 'totals.xlsx' })).toBe(true);
    expect(jobQuestionsAnswered([file, url], { input_file: 'a.csv' }), 'no job question: nothing to design again').toBe(false);
  });
});

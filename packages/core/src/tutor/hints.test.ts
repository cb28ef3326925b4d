import { describe, expect, it } from 'vitest';
import type { AnswerKey } from './answerForms';
import { attemptSentence, planHint, storedAttempt, typedAttempt } from './hints';

const number: AnswerKey = { type: 'number', answer: '2156', questionText: 'حاصل ۳۰۸ × ۷ چند است؟' };
const choice: AnswerKey = {
  type: 'choice',
  answer: 'c',
  choices: ['۲۸٬۰۴۰', '۲۰۸٬۴۰۰', '۲۰۸٬۰۴۰'].map((text, i) => ({ id: 'abc'[i] as string, text })),
  questionText: 'عدد «دویست و هشت هزار و چهل» کدام است؟',
};

describe('hints', () => {
  it('reads an attempt typed in the message, in any digits', () => {
    expect(typedAttempt(number, 'is it 2156?')).toEqual({ answer: '2156', correct: true });
    expect(typedAttempt(number, 'جوابش ۲۱۴۶ میشه؟')).toEqual({ answer: '2146', correct: false });
    expect(typedAttempt(number, 'why do we multiply 308 by 7')).toBeUndefined();
    expect(typedAttempt(choice, 'گزینه ج درسته؟')).toEqual({ answer: 'c', correct: true });
    expect(typedAttempt(choice, 'b')).toEqual({ answer: 'b', correct: false });
    expect(typedAttempt(choice, 'I chose option a')).toEqual({ answer: 'a', correct: false });
  });

  it('takes the stored attempt from the latest answer and the last wrong one', () => {
    const wrong = { answer: '2146', answeredAt: '2026-11-20T08:00:00.000Z' };
    expect(storedAttempt(number, { correct: false, answeredAt: wrong.answeredAt }, wrong)).toMatchObject({
      answer: '2146',
      correct: false,
    });
    expect(storedAttempt(number, { correct: true, answeredAt: '2026-11-20T08:05:00.000Z' }, wrong)).toMatchObject({
      answer: '2156',
      correct: true,
    });
    expect(storedAttempt(number, undefined, undefined)).toBeUndefined();
  });

  it('climbs one rung per answer of the conversation, reports an attempt once, and a typed one always', () => {
    const stored = { answer: '2146', correct: false, atMs: 1000 };
    expect(planHint(number, {}, stored, 'help')).toMatchObject({ rung: 1, report: stored });
    expect(planHint(number, { lastRung: 1, lastAnswerAtMs: 2000 }, stored, 'more')).toEqual({ rung: 2, attempt: stored });
    expect(planHint(number, { lastRung: 3, lastAnswerAtMs: 2000 }, stored, 'more').rung).toBe(3);
    expect(planHint(number, { lastRung: 2, lastAnswerAtMs: 2000 }, stored, 'is it 2150?')).toMatchObject({
      rung: 3,
      report: { answer: '2150', correct: false },
    });
    expect(attemptSentence(choice, { answer: 'b', correct: false }, true)).toBe('جواب تو (b) ۲۰۸٬۴۰۰) هنوز درست نیست. بیا با هم فکر کنیم.');
  });
});

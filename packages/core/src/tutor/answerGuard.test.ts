import { describe, expect, it } from 'vitest';
import type { AnswerKey } from './answerForms';
import { createAnswerGuard } from './answerGuard';

/** A choice question whose choices `a`, `b`, `c`… have `texts`. */
const choiceKey = (answer: string, texts: string[], questionText: string): AnswerKey => ({
  type: 'choice',
  answer,
  choices: texts.map((text, i) => ({ id: 'abcd'[i] as string, text })),
  questionText,
});

/** The guard's output for `text` fed whole, and fed cut at every point into two chunks and char by char. */
function guarded(key: AnswerKey, text: string, persian = false): string {
  const whole = createAnswerGuard(key, persian);
  const out = whole.push(text) + whole.end();
  for (let i = 0; i <= text.length; i++) {
    const g = createAnswerGuard(key, persian);
    expect(g.push(text.slice(0, i)) + g.push(text.slice(i)) + g.end()).toBe(out);
  }
  const g = createAnswerGuard(key, persian);
  expect([...text].map((c) => g.push(c)).join('') + g.end()).toBe(out);
  return out;
}

describe('createAnswerGuard', () => {
  const lcd: AnswerKey = { type: 'number', answer: '12', questionText: 'کوچک‌ترین مخرج مشترک کسرهای ۱/۴ و ۱/۶ چند است؟' };

  it('masks a number answer in Latin, Persian and Arabic-Indic digits and in words, also inside a fraction', () => {
    expect(guarded(lcd, 'It is 12, ۱۲, ١٢, twelve, دوازده; 1/4 = 3/12.')).toBe('It is ?, ?, ?, ?, ?; 1/4 = 3/?.');
  });

  it('keeps other numbers, larger ones containing the answer’s digits, and the question’s own numbers', () => {
    expect(guarded(lcd, '120 and 3.12 and 112 stay, so do ۱/۴ and 1/6.')).toBe('120 and 3.12 and 112 stay, so do ۱/۴ and 1/6.');
    const denominator: AnswerKey = { type: 'number', answer: '9', questionText: 'مخرج کسر ۷/۹ چند است؟' };
    expect(guarded(denominator, 'در کسر ۷/۹ عدد زیر خط ۹ است. نه، دوباره نگاه کن.', true)).toBe(
      'در کسر ۷/۹ عدد زیر خط ؟ است. نه، دوباره نگاه کن.',
    );
  });

  it('masks big numbers with thousands separators, decimals and their words', () => {
    const big: AnswerKey = { type: 'number', answer: '47305', questionText: 'عدد ۴۰٬۰۰۰ + ۷٬۰۰۰ + ۳۰۰ + ۵ را بنویسید.' };
    expect(guarded(big, 'جواب ۴۷٬۳۰۵ یا 47,305 یا چهل و هفت هزار و سیصد و پنج است.', true)).toBe('جواب ؟ یا ؟ یا ؟ است.');
    const decimal: AnswerKey = { type: 'number', answer: '2.4', questionText: 'حاصل ۱٫۸ + ۰٫۶ چند است؟' };
    expect(guarded(decimal, '2.4, ۲٫۴, 2.40 and two point four; 12.4 stays.')).toBe('?, ?, ? and ?; 12.4 stays.');
  });

  it('masks a choice answer: its text, its number in words, and references to the choice', () => {
    const key = choiceKey('b', ['۲/۶', '۳/۴', '۲/۴'], 'حاصل ۱/۲ + ۱/۴ کدام است؟');
    expect(guarded(key, 'گزینه ب یعنی ۳/۴ یا 3 / 4 یا سه چهارم؛ (b) و option b. ۲/۴ می‌ماند.', true)).toBe(
      '؟ یعنی ؟ یا ؟ یا ؟؛ ؟ و ؟. ۲/۴ می‌ماند.',
    );
    const words = choiceKey('c', ['تند', 'باز', 'راست'], 'زاویه');
    expect(guarded(words, 'زاویه راست است؛ the third choice.', true)).toBe('زاویه ؟ است؛ ؟.');
  });
});

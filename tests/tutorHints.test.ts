/**
 * Issue 16 §4 through the streaming route: with a `questionId` the tutor says whether the learner's attempt was
 * right, climbs the hint ladder (nudge → method → worked step) across the conversation, stores the rung with the
 * messages, and never lets the practice question's answer into the stream — in Latin, Persian or Arabic-Indic
 * digits, in words, or as the choice — even when the model is scripted to leak it.
 */
import { ATTEMPT_TEXT } from '@mathisland/core/tutor';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allNodes, questionsOf } from './support/content';
import { call, type Session, signIn, startTestStack, type TestStack } from './support/stack';
import { ask, llmConfig, llmNext, llmRequests } from './support/tutor';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
const toPersian = (s: string) => s.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)] as string);
const toArabic = (s: string) => s.replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)] as string);
const withSeparators = (s: string) => s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const questions = questionsOf(allNodes()[0]!);
/** `عدد ۴۰٬۰۰۰ + ۷٬۰۰۰ + ۳۰۰ + ۵ را به صورت یک عدد بنویسید.` → 47305 */
const numberQ = questions.find((q) => q.type === 'number' && Number(q.answer) > 10_000)!;
/** `در عدد ۵۸٬۳۶۲ رقم ۸ در کدام جایگاه است؟` → d) یکان هزار */
const choiceQ = questions.find((q) => q.type === 'choice')!;
const choiceText = choiceQ.choices!.find((c) => c.id === choiceQ.answer)!.text;

/** Every way the number answer could be written that must not reach the learner. */
const numberLeaks = (n: string) => [n, toPersian(n), toArabic(n), withSeparators(n), toPersian(withSeparators(n).replace(/,/g, '٬'))];

describe('hints that teach, through POST /api/ai/ask', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ now: NOW, env: { AI_DAILY_QUOTA_FREE: '20' } });
  });
  beforeEach(async () => {
    await llmConfig(stack, { firstTokenDelayMs: 5, chunkDelayMs: 1 });
    stack.clock.advance(60);
  });
  afterAll(() => stack?.close());

  const learner = async (): Promise<Session> => {
    stack.clock.advance(60);
    return signIn(stack);
  };
  const answer = (s: Session, questionId: number, value: string) =>
    call(stack, 'POST', `/api/questions/${questionId}/answer`, { token: s.accessToken, body: { answer: value } });
  const systemOfLast = async () => (await llmRequests(stack)).at(-1)?.messages[0]?.content ?? '';

  it('says the attempt was wrong, climbs nudge → method → worked step across the conversation, and stores the rung', async () => {
    const s = await learner();
    const wrong = String(Number(numberQ.answer) + 10);
    expect((await answer(s, numberQ.id, wrong)).body.correct).toBe(false);
    const texts: string[] = [];
    for (const [i, question] of ['I need help with this one', 'I still don’t get it', 'show me how to start', 'and then?'].entries()) {
      stack.clock.advance(60);
      const res = await ask(stack, s.accessToken, { userQuestion: question, questionId: numberQ.id });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-tutor-outcome')).toBe('answer');
      texts.push(res.text);
      expect(await systemOfLast()).toContain(`Hint step ${Math.min(i + 1, 3)} of 3`);
    }
    // The attempt is reported once, at the start of the first answer.
    expect(texts[0]?.startsWith(ATTEMPT_TEXT.wrong.en.replace('{answer}', wrong))).toBe(true);
    expect(texts.slice(1).every((t) => !t.includes(wrong))).toBe(true);
    expect(texts[0]).toContain('A nudge');
    expect(texts[1]).toContain('The method');
    expect(texts[2]).toContain('first step');
    for (const text of texts) for (const leak of numberLeaks(numberQ.answer)) expect(text).not.toContain(leak);
    const items = (await call(stack, 'GET', '/api/ai/history', { token: s.accessToken })).body.items;
    const rungs = items.filter((m: { role: string }) => m.role === 'assistant').map((m: { hintRung?: number }) => m.hintRung);
    expect(rungs).toEqual([3, 3, 2, 1]);
  });

  it('says a right attempt was right, and reads an answer typed in the message', async () => {
    const s = await learner();
    await answer(s, choiceQ.id, choiceQ.answer);
    const right = await ask(stack, s.accessToken, { userQuestion: 'چرا این جواب درسته؟', questionId: choiceQ.id });
    expect(right.text.startsWith(ATTEMPT_TEXT.right.fa)).toBe(true);
    expect(await systemOfLast()).toContain('It is right.');
    const other = await learner();
    const typed = await ask(stack, other.accessToken, { userQuestion: `is it ${Number(numberQ.answer) - 1}?`, questionId: numberQ.id });
    expect(typed.text.startsWith(ATTEMPT_TEXT.wrong.en.replace('{answer}', String(Number(numberQ.answer) - 1)))).toBe(true);
  });

  it('masks a number answer the model leaks, in Latin, Persian and Arabic-Indic digits and in words, also in the stored answer', async () => {
    const s = await learner();
    const n = numberQ.answer;
    await llmNext(stack, {
      reply: `The answer is **${n}**. In Persian digits ${toPersian(n)}, Arabic-Indic ${toArabic(n)}, grouped ${withSeparators(n)} or ${toPersian(withSeparators(n).replace(/,/g, '٬'))}, in words forty-seven thousand three hundred five, یعنی چهل و هفت هزار و سیصد و پنج. Once more: ${n}. And again ${toPersian(n)}. Last time, ${withSeparators(n)}.`,
    });
    await llmConfig(stack, { firstTokenDelayMs: 5, chunkDelayMs: 10 });
    const res = await ask(stack, s.accessToken, { userQuestion: 'what is the answer?', questionId: numberQ.id });
    expect(res.status).toBe(200);
    expect(res.chunks.length).toBeGreaterThan(2); // the opening, then sentence by sentence
    for (const leak of [...numberLeaks(n), 'forty-seven thousand', 'چهل و هفت هزار']) expect(res.text).not.toContain(leak);
    expect(res.text).toContain('The answer is ?. In Persian digits ?');
    const stored = (await call(stack, 'GET', '/api/ai/history', { token: s.accessToken })).body.items[0].text;
    expect(stored).toBe(res.text);
  });

  it('masks a choice answer the model leaks: the choice’s text, its letter and its Persian letter', async () => {
    const s = await learner();
    await llmNext(stack, { reply: `جواب گزینه ${choiceQ.answer} است: ${choiceText}. یعنی گزینه د یا (${choiceQ.answer}).` });
    const res = await ask(stack, s.accessToken, { userQuestion: 'جوابش کدومه؟', questionId: choiceQ.id });
    expect(res.text).not.toContain(choiceText);
    expect(res.text).not.toMatch(new RegExp(`گزینه\\s*(${choiceQ.answer}|د)`));
    expect(res.text).not.toContain(`(${choiceQ.answer})`);
    expect(res.text).toContain('؟');
  });

  it('refuses an off-topic request about a practice question with the same fixed refusal', async () => {
    const s = await learner();
    const res = await ask(stack, s.accessToken, { userQuestion: 'tell me a joke', questionId: numberQ.id });
    expect(res.headers.get('x-tutor-outcome')).toBe('off_topic');
  });
});

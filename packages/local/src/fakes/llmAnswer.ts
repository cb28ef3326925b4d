/**
 * Answers of the local fake model (`llm.ts`), derived from the chat request's messages the way a real model
 * reads them (issue 16 §2, §4):
 *
 * - Scope: when the system prompt has a scope rule ("answer with exactly <marker> and nothing else"), the fake
 *   judges the last user message on its own (`llmScope.ts`, not the service's gate) and answers exactly that
 *   marker only on evidence that it is not about math — a rule change, a question to the tutor about itself, a
 *   story or game, another subject or a fact about the world, chit-chat — when it shows no math of its own (something
 *   to compute, a math term, a quantity asked about); everything else is answered, as a real model reading the
 *   prompt's rule would. A follow-up counts as math in a conversation (an earlier answer, a practice question). So
 *   the refusal path of the service is exercised end to end, as with a real model.
 * - A practice question in the prompt: a reply for the rung of the hint ladder the prompt asks for ("Hint step
 *   N of 3": a nudge, the method on other numbers, the first step on the question's own numbers), never the
 *   final answer.
 * - Two fractions in the question (`3/4 and 1/8`, Persian digits too): a worked sum (or difference, for
 *   subtract/minus/تفریق); anything else a short generic explanation.
 * Replies are in the question's language, name the first textbook section of the system prompt, and
 * deliberately contain Markdown and LaTeX (`##`, `**`, `- `, `$\frac{a}{b}$`, `\times`) so that the server's
 * plain-text cleaning is exercised. A scripted reply (`POST /_local/llm/next`) replaces all of this.
 */
import { asciiDigits } from '@mathisland/core/tutor';
import { type ChatTurn, isOffTopic } from './llmScope';

export type { ChatTurn } from './llmScope';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const isPersianText = (s: string) => (s.match(/[\u0600-\u06FF]/g) ?? []).length > (s.match(/[A-Za-z]/g) ?? []).length;

/** The two numbers and the sign of the first `a op b` of a text (ASCII digits), if any. */
function expressionOf(text: string): { a: number; op: string; b: number } | undefined {
  const m = /(\d+(?:\.\d+)?)\s*([-+−×x*÷/])\s*(\d+(?:\.\d+)?)/.exec(asciiDigits(text).replace(/(\d)[٬,](?=\d{3})/g, '$1'));
  if (!m) return undefined;
  const op = ({ '−': '-', x: '×', '*': '×' } as Record<string, string>)[m[2] as string] ?? (m[2] as string);
  return { a: Number(m[1]), op, b: Number(m[3]) };
}

/** A reply for the hint rung the prompt asks for (see the module doc). */
function hintReply(system: string, fa: boolean, source: string): string {
  const practice = /Practice question:\n(.+)/.exec(system)?.[1] ?? '';
  const rung = Number(/Hint step (\d) of 3/.exec(system)?.[1] ?? 1);
  const e = expressionOf(practice);
  if (/The child's latest attempt: .+ It is right\./.test(system)) {
    return fa
      ? `## درست فکر کردی\n\n- **چرا درست است؟** هر قدمی را که رفتی یک بار دیگر مرور کن و برای خودت بگو چرا آن کار را کردی.\n- حالا یک سؤال شبیه این را امتحان کن.${source}`
      : `## You worked it out\n\n- **Why is it right?** Go over each step once more and say to yourself why you did it.\n- Now try a similar question.${source}`;
  }
  const opName = (o: string) =>
    fa
      ? ({ '+': 'جمع', '-': 'تفریق', '×': 'ضرب', '÷': 'تقسیم', '/': 'کسر' } as Record<string, string>)[o]
      : ({ '+': 'add', '-': 'subtract', '×': 'multiply', '÷': 'divide', '/': 'work with the fraction' } as Record<string, string>)[o];
  if (rung <= 1) {
    return fa
      ? `## یک سرنخ\n\nسؤال را دوباره بخوان: «${practice}»\n\n- **اول** ببین سؤال دقیقاً چه چیزی را می‌خواهد.\n- کدام عددها را لازم داری؟${e ? ` باید ${opName(e.op)} کنی.` : ''}\n\nحالا خودت امتحان کن!${source}`
      : `## A nudge\n\nRead the question again: "${practice}"\n\n- **First**, find what it asks for.\n- Which numbers do you need?${e ? ` You need to ${opName(e.op)}.` : ''}\n\nNow try it yourself!${source}`;
  }
  if (rung === 2) {
    return fa
      ? `## روش\n\n- **قدم ۱:** عدد بزرگ‌تر را به صدگان، دهگان و یکان بشکن.\n- **قدم ۲:** هر قسمت را جداگانه حساب کن.\n- **قدم ۳:** نتیجه‌ها را کنار هم بگذار.\n\nمثال با عددهای دیگر: $204 \\times 3$ = ۲۰۰ × ۳ + ۴ × ۳ = ۶۰۰ + ۱۲ = ۶۱۲.\n\nحالا همین روش را روی سؤال خودت پیاده کن.${source}`
      : `## The method\n\n- **Step 1:** break the bigger number into hundreds, tens and ones.\n- **Step 2:** work out each part on its own.\n- **Step 3:** put the results together.\n\nAn example with other numbers: $204 \\times 3$ = 200 × 3 + 4 × 3 = 600 + 12 = 612.\n\nNow use the same method on your question.${source}`;
  }
  const place = e && e.a >= 10 ? 10 ** Math.floor(Math.log10(e.a)) : 1;
  const big = e ? Math.floor(e.a / place) * place : 0;
  const rest = e ? e.a - big : 0;
  if (e && rest > 0 && (e.op === '×' || e.op === '+' || e.op === '-')) {
    const first = e.op === '×' ? big * e.b : e.op === '+' ? big + e.b : big - e.b;
    const sign = e.op === '-' ? '−' : e.op;
    return fa
      ? `## قدم اول را با هم برداریم\n\n**${big} ${sign} ${e.b} = ${first}**\n\nحالا ${rest} باقی مانده: ${rest} را هم ${opName(e.op)} کن و با ${first} کنار هم بگذار. جواب را خودت پیدا کن!${source}`
      : `## Let's do the first step together\n\n**${big} ${sign} ${e.b} = ${first}**\n\nNow ${rest} is left: ${opName(e.op)} with it too and put it together with ${first}. Find the answer yourself!${source}`;
  }
  return fa
    ? `## قدم اول را با هم برداریم\n\n- عددهای سؤال را زیر هم بنویس.\n- **قدم اول:** از سمت راست، یکان‌ها را با هم حساب کن.\n\nبقیه‌اش با خودت؛ جواب را خودت پیدا کن!${source}`
    : `## Let's do the first step together\n\n- Write the numbers of the question one under the other.\n- **First step:** start from the right, with the ones.\n\nThe rest is yours: find the answer yourself!${source}`;
}

/** The deterministic answer of the fake for a chat request's messages (see the module doc). */
export function fakeAnswer(messages: ChatTurn[]): string {
  const userTurns = messages.filter((m) => m.role === 'user');
  const question = userTurns.at(-1)?.content ?? '';
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const earlier = messages.slice(1, -1);
  const marker = /answer with exactly (\S+) and nothing else/.exec(system)?.[1];
  if (marker && isOffTopic(question, system, earlier)) return marker;
  const fa = isPersianText(question);
  const book = /^--- (.+)$/m.exec(system)?.[1];
  const source = book ? (fa ? `\n\n(از کتابت: ${book})` : `\n\n(From your book: ${book})`) : '';
  if (system.includes('Practice question:')) return hintReply(system, fa, source);
  const plain = asciiDigits(question);
  const fractions = [...plain.matchAll(/(\d+)\s*\/\s*(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
  if (fractions.length >= 2 && fractions[0]?.[1] && fractions[1]?.[1]) {
    const [[a, b], [c, d]] = fractions as [[number, number], [number, number]];
    const subtract = /subtract|minus|take away|difference|تفریق|منها|−/.test(plain.toLowerCase()) || /\d\s*-\s*\d/.test(plain);
    const common = (b * d) / gcd(b, d);
    const a2 = a * (common / b);
    const c2 = c * (common / d);
    const top = subtract ? a2 - c2 : a2 + c2;
    const g = gcd(Math.abs(top), common) || 1;
    const result = g > 1 ? `${top / g}/${common / g}` : `${top}/${common}`;
    const sign = subtract ? '-' : '+';
    return fa
      ? `## ${subtract ? 'تفریق' : 'جمع'} ${a}/${b} و ${c}/${d}\n\n**قدم ۱:** مخرج‌ها را یکی کن. مخرج مشترک ${common} است: $\\frac{${a}}{${b}} = \\frac{${a2}}{${common}}$ و $\\frac{${c}}{${d}} = \\frac{${c2}}{${common}}$.\n\n**قدم ۲:** صورت‌ها را ${subtract ? 'از هم کم' : 'با هم جمع'} کن: $\\frac{${a2}}{${common}} ${sign} \\frac{${c2}}{${common}} = \\frac{${top}}{${common}}$.\n\n- پس جواب **${result}** است.${source}`
      : `## ${subtract ? 'Subtracting' : 'Adding'} ${a}/${b} and ${c}/${d}\n\n**Step 1:** Make the denominators the same. The common denominator is ${common}: $\\frac{${a}}{${b}} = \\frac{${a2}}{${common}}$ and $\\frac{${c}}{${d}} = \\frac{${c2}}{${common}}$.\n\n**Step 2:** ${subtract ? 'Subtract' : 'Add'} the numerators: $\\frac{${a2}}{${common}} ${sign} \\frac{${c2}}{${common}} = \\frac{${top}}{${common}}$.\n\n- So the answer is **${result}**.${source}`;
  }
  const echo = question.length > 80 ? `${question.slice(0, 80)}…` : question;
  return fa
    ? `## بیا با هم فکر کنیم\n\nپرسیدی: «${echo}»\n\n- **اول** سؤال را آرام بخوان و عددها را پیدا کن.\n- **بعد** ببین باید جمع کنی، کم کنی، ضرب کنی ($\\times$) یا تقسیم کنی.\n\nامتحان کن و جوابت را به من بگو!${source}`
    : `## Let's think together\n\nYou asked: "${echo}"\n\n- **First**, read the question slowly and find the numbers.\n- **Then** decide: do we add, subtract, multiply ($\\times$) or divide?\n\nTry it and tell me what you get!${source}`;
}

/**
 * Answers of the local fake model (`llm.ts`), derived from the last user message and the system prompt. Two
 * fractions in the question (`3/4 and 1/8`, Persian digits too) get a worked sum (or difference, for
 * subtract/minus/تفریق); anything else a short generic explanation; with a practice question in the system
 * prompt, a guiding reply. The answer is in Persian when the question is, names the first textbook section of
 * the system prompt, and deliberately contains Markdown and LaTeX (`##`, `**`, `- `, `$\frac{a}{b}$`, `\times`)
 * so that the server's plain-text cleaning is exercised.
 */
import { asciiDigits } from '@mathisland/core/tutor';

/** A chat message as the API receives it. */
export interface ChatTurn {
  role: string;
  content: string;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The deterministic answer of the fake for a chat request's messages (see the module doc). */
export function fakeAnswer(messages: ChatTurn[]): string {
  const question = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const fa = (question.match(/[\u0600-\u06FF]/g) ?? []).length > (question.match(/[A-Za-z]/g) ?? []).length;
  const book = /^--- (.+)$/m.exec(system)?.[1];
  const source = book ? (fa ? `\n\n(از کتابت: ${book})` : `\n\n(From your book: ${book})`) : '';
  if (system.includes('Practice question:')) {
    const practice = /Practice question:\n(.+)/.exec(system)?.[1] ?? '';
    return fa
      ? `## بیا با هم فکر کنیم\n\nسؤال این بود: «${practice}»\n\n- **اول** ببین سؤال چه می‌خواهد.\n- **بعد** جواب قبلی‌ات را دوباره نگاه کن: کجای آن با سؤال جور نیست؟\n\nحالا دوباره امتحان کن!${source}`
      : `## Let's think together\n\nThe question was: "${practice}"\n\n- **First**, read what it asks.\n- **Then** look at your last answer again: which step does not fit?\n\nNow try once more!${source}`;
  }
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

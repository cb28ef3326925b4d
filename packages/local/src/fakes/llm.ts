/**
 * Local fake of an OpenAI-compatible model API (DESIGN §6), mounted at `/_local/llm`. Deterministic, so tests
 * and the offline demo work; the tutor talks to it through the openai SDK exactly as to a real provider.
 *
 * Wire format (OpenAI's):
 * - `POST /_local/llm/v1/chat/completions` (`Authorization: Bearer <key>`; wrong key → 401 with an OpenAI
 *   error body). With `stream: true`: `text/event-stream` of `data: {chat.completion.chunk}` lines (a role
 *   chunk, content chunks, a chunk with `finish_reason: "stop"`, then, when `stream_options.include_usage`, a
 *   chunk with `choices: []` and `usage`), ending with `data: [DONE]`. Without: one `chat.completion` JSON.
 * - `POST /_local/llm/v1/embeddings` `{ model, input: string | string[], encoding_format? }` → `{ object:
 *   'list', data: [{ object: 'embedding', index, embedding }], model, usage }`; `embedding` is a float array,
 *   or base64 of little-endian float32 when `encoding_format: 'base64'` (what the SDK asks for by default).
 *
 * The answers: derived from the last user message and the system prompt. Two fractions in the question
 * (`3/4 and 1/8`, Persian digits too) get a worked sum (or difference, for subtract/minus/تفریق); anything else
 * a short generic explanation; with a practice question in the system prompt, a guiding reply. The answer is in
 * Persian when the question is, names the first textbook section of the system prompt, and deliberately
 * contains Markdown and LaTeX (`##`, `**`, `- `, `$\frac{a}{b}$`, `\times`) so that the server's plain-text
 * cleaning is exercised. It is streamed in chunks of {@link CHUNK_CHARS} characters (so constructs are split
 * across chunks), the first after `firstTokenDelayMs`, the others `chunkDelayMs` apart.
 *
 * Embeddings: a hashed bag of words ({@link fakeEmbedding}, 256 dimensions, L2-normalized) over folded text
 * (Persian digits and letter forms, `3/4`-style fractions kept as words), plus a small English ↔ Persian concept
 * map (add/جمع, fraction/کسر, area/مساحت, ...) so that an English question finds the Persian textbook.
 *
 * Control routes (local only):
 * - `GET /_local/llm/requests` → `{ items: [{ model, messages, stream, receivedAt }] }`, the chat requests
 *   received, newest last; `DELETE /_local/llm/requests` forgets them.
 * - `GET /_local/llm/config`, `POST /_local/llm/config` `{ firstTokenDelayMs?, chunkDelayMs? }` → the config.
 * - `POST /_local/llm/next` `{ reply?, fail?: 'error' | 'cut', cutAfterChunks? (default 3), status? (default
 *   500), times? (default 1) }` queues a behaviour for the next chat request(s): a fixed reply text, an HTTP
 *   error instead of an answer (the SDK retries once: use `times: 2` to make the call fail), or a stream cut
 *   (connection destroyed) after some chunks. → `{ queued }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { asciiDigits, fold } from '@mathisland/core/tutor/text';

/** Characters per streamed content chunk. */
export const CHUNK_CHARS = 6;
export const EMBEDDING_DIMS = 256;

export interface LlmFakeConfig {
  firstTokenDelayMs: number;
  chunkDelayMs: number;
}

export const defaultLlmFakeConfig: LlmFakeConfig = { firstTokenDelayMs: 150, chunkDelayMs: 25 };

interface Message {
  role: string;
  content: string;
}

export interface LlmRequest {
  model: string;
  messages: Message[];
  stream: boolean;
  receivedAt: string;
}

interface Scripted {
  reply?: string;
  fail?: 'error' | 'cut';
  cutAfterChunks: number;
  status: number;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

const openAiError = (res: ServerResponse, status: number, message: string, type: string, code: string | null = null) =>
  json(res, status, { error: { message, type, param: null, code } });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// Embeddings

const STOPWORDS = new Set(
  'the a an and or of to in on is are was be do does did i you me my it this that how what why which can with for at by from please'
    .split(' ')
    .concat('و در به از که را این آن با است هست می من تو ما چه چرا چطور چگونه یک برای هم کن کنم کنیم'.split(' ')),
);

const CONCEPTS: Record<string, string[]> = {
  add: ['add', 'adding', 'addition', 'plus', 'sum', 'جمع'],
  subtract: ['subtract', 'subtracting', 'subtraction', 'minus', 'difference', 'تفریق'],
  fraction: ['fraction', 'fractions', 'کسر'],
  denominator: ['denominator', 'denominators', 'مخرج'],
  numerator: ['numerator', 'numerators', 'صورت'],
  decimal: ['decimal', 'decimals', 'اعشاری', 'اعشار'],
  tenth: ['tenth', 'tenths', 'دهم'],
  hundredth: ['hundredth', 'hundredths', 'صدم'],
  thousandth: ['thousandth', 'thousandths', 'هزارم'],
  area: ['area', 'مساحت'],
  perimeter: ['perimeter', 'محیط'],
  triangle: ['triangle', 'triangles', 'مثلث'],
  rectangle: ['rectangle', 'rectangles', 'مستطیل'],
  square: ['square', 'squares', 'مربع'],
  height: ['height', 'ارتفاع'],
  base: ['base', 'قاعده'],
  multiply: ['multiply', 'times', 'product', 'ضرب'],
  divide: ['divide', 'division', 'تقسیم'],
  mixed: ['mixed', 'مخلوط'],
};
const conceptOf = new Map<string, string>();
for (const [concept, words] of Object.entries(CONCEPTS)) for (const w of words) conceptOf.set(fold(w), `concept:${concept}`);

/** Words of `text` for the bag: folded, fractions kept whole and also split, Persian plural `ها` dropped. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of fold(text).split(/[^\p{L}\p{N}/]+/u)) {
    if (!raw) continue;
    const parts = /^\d+\/\d+$/.test(raw) ? [raw, ...raw.split('/')] : raw.split('/');
    for (let w of parts) {
      if (!w || STOPWORDS.has(w)) continue;
      if (w.length > 3 && w.endsWith('ها')) w = w.slice(0, -2).trim();
      out.push(w);
    }
  }
  return out;
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fake's embedding of `text`: a hashed bag of words and concepts, L2-normalized. */
export function fakeEmbedding(text: string, dims = EMBEDDING_DIMS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of words(text)) {
    const features = [w];
    const concept = conceptOf.get(w);
    if (concept) features.push(concept, concept);
    for (const f of features) {
      const h = hash(f);
      v[h % dims] = (v[h % dims] as number) + (h & 0x80000000 ? -1 : 1);
    }
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm ? v.map((x) => x / norm) : v;
}

const toBase64 = (v: number[]) => Buffer.from(Float32Array.from(v).buffer).toString('base64');

// ---------------------------------------------------------------------------------------------------------
// Answers

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The deterministic answer of the fake for a chat request (see the module doc). */
export function fakeAnswer(messages: Message[]): string {
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

// ---------------------------------------------------------------------------------------------------------
// The server

export function createLlmFake(options: { apiKey: string; config?: Partial<LlmFakeConfig> }) {
  const config: LlmFakeConfig = { ...defaultLlmFakeConfig, ...options.config };
  const requests: LlmRequest[] = [];
  const queue: Scripted[] = [];
  let completionId = 0;

  const authorized = (req: IncomingMessage) => req.headers.authorization === `Bearer ${options.apiKey}`;

  async function chat(res: ServerResponse, body: Record<string, unknown>) {
    const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
    const model = String(body.model ?? '');
    if (!model || messages.length === 0) return openAiError(res, 400, 'model and messages are required', 'invalid_request_error');
    const stream = body.stream === true;
    requests.push({ model, messages, stream, receivedAt: new Date().toISOString() });
    const script = queue.shift();
    if (script?.fail === 'error')
      return openAiError(res, script.status, 'The server had an error while processing your request.', 'server_error');
    const answer = script?.reply ?? fakeAnswer(messages);
    const id = `chatcmpl-fake-${++completionId}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = {
      prompt_tokens: Math.ceil(messages.reduce((n, m) => n + String(m.content).length, 0) / 4),
      completion_tokens: Math.ceil(answer.length / 4),
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (!stream) {
      await sleep(config.firstTokenDelayMs);
      return json(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: answer, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage,
      });
    }
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const frame = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: null, choices, ...(includeUsage ? { usage: null } : {}), ...extra })}\n\n`;
    const delta = (d: Record<string, unknown>, finish: string | null = null) =>
      frame([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    await sleep(config.firstTokenDelayMs);
    if (closed) return;
    res.write(delta({ role: 'assistant', content: '', refusal: null }));
    const pieces = Array.from({ length: Math.ceil(answer.length / CHUNK_CHARS) }, (_, i) =>
      answer.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS),
    );
    for (const [i, piece] of pieces.entries()) {
      if (closed) return;
      if (script?.fail === 'cut' && i >= script.cutAfterChunks) {
        res.destroy();
        return;
      }
      if (i > 0) await sleep(config.chunkDelayMs);
      if (closed) return;
      res.write(delta({ content: piece }));
    }
    res.write(delta({}, 'stop'));
    if (includeUsage) res.write(frame([], { usage }));
    res.end('data: [DONE]\n\n');
  }

  function embeddings(res: ServerResponse, body: Record<string, unknown>) {
    const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? (body.input as unknown[]) : [];
    const model = String(body.model ?? '');
    if (!model || input.length === 0 || input.some((i) => typeof i !== 'string')) {
      return openAiError(res, 400, 'model and input (strings) are required', 'invalid_request_error');
    }
    const base64 = body.encoding_format === 'base64';
    const tokens = input.reduce<number>((n, t) => n + Math.ceil(String(t).length / 4), 0);
    return json(res, 200, {
      object: 'list',
      data: input.map((text, index) => {
        const v = fakeEmbedding(String(text));
        return { object: 'embedding', index, embedding: base64 ? toBase64(v) : v };
      }),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  return {
    requests,
    config,
    /** Handles a request under `/_local/llm`; `path` is the rest of the path. Returns false when not its route. */
    async handle(req: IncomingMessage, res: ServerResponse, path: string, _url: URL, raw: Buffer): Promise<boolean> {
      const method = req.method ?? 'GET';
      let body: Record<string, unknown> = {};
      if (raw.length) {
        try {
          body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          openAiError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
          return true;
        }
      }
      if (path === '/requests' && method === 'GET') {
        json(res, 200, { items: requests });
        return true;
      }
      if (path === '/requests' && method === 'DELETE') {
        requests.length = 0;
        res.writeHead(204).end();
        return true;
      }
      if (path === '/config' && (method === 'GET' || method === 'POST')) {
        for (const name of ['firstTokenDelayMs', 'chunkDelayMs'] as const) {
          if (typeof body[name] === 'number' && (body[name] as number) >= 0) config[name] = body[name] as number;
        }
        json(res, 200, config);
        return true;
      }
      if (path === '/next' && method === 'POST') {
        const times = typeof body.times === 'number' ? Math.max(1, Math.min(20, body.times)) : 1;
        for (let i = 0; i < times; i++) {
          queue.push({
            reply: typeof body.reply === 'string' ? body.reply : undefined,
            fail: body.fail === 'error' || body.fail === 'cut' ? body.fail : undefined,
            cutAfterChunks: typeof body.cutAfterChunks === 'number' ? body.cutAfterChunks : 3,
            status: typeof body.status === 'number' ? body.status : 500,
          });
        }
        json(res, 200, { queued: queue.length });
        return true;
      }
      if (path === '/v1/chat/completions' || path === '/v1/embeddings') {
        if (method !== 'POST') {
          openAiError(res, 405, `Method ${method} not allowed`, 'invalid_request_error');
          return true;
        }
        if (!authorized(req)) {
          openAiError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
          return true;
        }
        if (path === '/v1/embeddings') embeddings(res, body);
        else await chat(res, body);
        return true;
      }
      return false;
    },
  };
}

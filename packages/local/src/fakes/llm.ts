/**
 * Local fake of an OpenAI-compatible model API (DESIGN §6), mounted at `/_local/llm`. Deterministic, so tests
 * and the offline demo work; the tutor talks to it through the openai SDK exactly as to a real provider, and it
 * refuses what the real API refuses (`llmModels.ts`: unknown models, parameters a model does not take).
 *
 * Wire format (OpenAI's, providers.md §5):
 * - `POST /_local/llm/v1/chat/completions` (`Authorization: Bearer <key>`; wrong key → 401 with an OpenAI
 *   error body). With `stream: true`: `text/event-stream` of `data: {chat.completion.chunk}` lines (a role
 *   chunk, content chunks, a chunk with `finish_reason: "stop"` (or the one scripted by `/next`), then, when
 *   `stream_options.include_usage`, a chunk with `choices: []` and `usage`), ending with `data: [DONE]`. Without:
 *   one `chat.completion` JSON.
 *   Message content may be a string or an array of text parts; with the config `contentParts: true` the fake
 *   answers its deltas as arrays of parts too, as some compatible providers do.
 * - `POST /_local/llm/v1/embeddings` `{ model, input: string | string[], dimensions?, encoding_format? }` →
 *   `{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }` with the model's own
 *   dimension (1536 for text-embedding-3-small, 3072 for -3-large, or `dimensions`); `embedding` is a float
 *   array, or base64 of little-endian float32 when `encoding_format: 'base64'` (what the SDK asks for by default).
 * - `GET /_local/llm/v1/models`: the models it knows.
 *
 * The answers (`llmAnswer.ts`): derived from the last user message and the system prompt, in the question's
 * language, with Markdown and LaTeX in them so that the server's plain-text cleaning is exercised. An answer is
 * streamed in chunks of {@link CHUNK_CHARS} characters (so constructs are split across chunks), the first after
 * `firstTokenDelayMs`, the others `chunkDelayMs` apart.
 *
 * Embeddings (`llmEmbedding.ts`): a deterministic hashed bag of words with an English ↔ Persian concept map,
 * so that an English question finds the Persian textbook.
 *
 * Control routes (local only):
 * - `GET /_local/llm/requests` → `{ items: [{ model, messages, stream, receivedAt }] }`, the chat requests
 *   received, newest last (message content as text); `DELETE /_local/llm/requests` forgets them.
 * - `GET /_local/llm/config`, `POST /_local/llm/config` `{ firstTokenDelayMs?, chunkDelayMs?, contentParts? }`.
 * - `POST /_local/llm/faults` (`faults.ts`): the next calls (those whose path contains `path`: `chat`,
 *   `embeddings`) answer an HTTP `status` in OpenAI's error body (429 `rate_limit_exceeded` or `code:
 *   'insufficient_quota'` with `retry-after`, 401, 404, 500, 503, ...), hang, reset, stall mid-stream after
 *   `afterChunks` chunks, or send garbage.
 * - `POST /_local/llm/next` `{ reply?, finishReason?: 'length' | 'content_filter', fail?: 'error' | 'cut',
 *   cutAfterChunks? (default 3), status? (default 500), times? (default 1) }` queues a behaviour for the next chat
 *   request(s): a fixed reply text; the reply (fixed or its own) ended with another `finish_reason` than `stop`, as
 *   the real API ends an answer stopped at `max_completion_tokens` or by its content filter (streamed: the last
 *   content chunk, then a chunk with an empty delta and that `finish_reason`, then the usage when asked for); an
 *   HTTP error instead of an answer (the SDK retries once: use `times: 2` to make the call fail), or a stream cut
 *   (connection destroyed) after some chunks. → `{ queued }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyFault, createFaults, type Fault, sleep } from './faults';
import { type ChatTurn, fakeAnswer } from './llmAnswer';
import { embeddingBase64, fakeEmbedding } from './llmEmbedding';
import { chatRefusal, contentText, embeddingDims, faultError, modelList, type OpenAiError } from './llmModels';

/** Characters per streamed content chunk. */
export const CHUNK_CHARS = 6;

export interface LlmFakeConfig {
  firstTokenDelayMs: number;
  chunkDelayMs: number;
  /** Stream each delta's content as an array of text parts instead of a string. */
  contentParts: boolean;
}

export const defaultLlmFakeConfig: LlmFakeConfig = { firstTokenDelayMs: 150, chunkDelayMs: 25, contentParts: false };

export interface LlmRequest {
  model: string;
  messages: ChatTurn[];
  stream: boolean;
  receivedAt: string;
}

/** The `finish_reason`s a script may end a reply with besides `stop` (providers.md §5). */
const FINISH_REASONS = ['length', 'content_filter'] as const;

interface Scripted {
  reply?: string;
  finishReason?: (typeof FINISH_REASONS)[number];
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

const refuse = (res: ServerResponse, e: OpenAiError, headers: Record<string, string> = {}) => {
  res.writeHead(e.status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify({ error: { message: e.message, type: e.type, param: e.param, code: e.code } }));
};

/** A fault's answer in OpenAI's error body; a 429 carries `retry-after` and the rate-limit headers. */
function faultAnswer(res: ServerResponse, fault: Fault) {
  const status = fault.status ?? 500;
  const headers: Record<string, string> =
    status === 429
      ? { 'retry-after': String(fault.retryAfter ?? 1), 'x-ratelimit-limit-requests': '500', 'x-ratelimit-remaining-requests': '0' }
      : {};
  refuse(res, faultError(status, fault.code, fault.message), headers);
}

export function createLlmFake(options: { apiKey: string; config?: Partial<LlmFakeConfig> }) {
  const config: LlmFakeConfig = { ...defaultLlmFakeConfig, ...options.config };
  const requests: LlmRequest[] = [];
  const queue: Scripted[] = [];
  const faults = createFaults();
  let completionId = 0;

  const authorized = (req: IncomingMessage) => req.headers.authorization === `Bearer ${options.apiKey}`;

  async function chat(res: ServerResponse, body: Record<string, unknown>, fault: Fault | undefined) {
    const refusal = chatRefusal(body);
    if (refusal) return refuse(res, refusal);
    const messages: ChatTurn[] = (body.messages as Array<{ role: string; content: unknown }>).map((m) => ({
      role: m.role,
      content: contentText(m.content) ?? '',
    }));
    const model = String(body.model);
    const stream = body.stream === true;
    requests.push({ model, messages, stream, receivedAt: new Date().toISOString() });
    const script = queue.shift();
    if (script?.fail === 'error')
      return openAiError(res, script.status, 'The server had an error while processing your request.', 'server_error');
    const answer = script?.reply ?? fakeAnswer(messages);
    const finishReason = script?.finishReason ?? 'stop';
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
        choices: [
          { index: 0, message: { role: 'assistant', content: answer, refusal: null }, logprobs: null, finish_reason: finishReason },
        ],
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
    res.write(delta({ role: 'assistant', content: config.contentParts ? [] : '', refusal: null }));
    const pieces = Array.from({ length: Math.ceil(answer.length / CHUNK_CHARS) }, (_, i) =>
      answer.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS),
    );
    for (const [i, piece] of pieces.entries()) {
      if (closed) return;
      if (script?.fail === 'cut' && i >= script.cutAfterChunks) {
        res.destroy();
        return;
      }
      if (fault?.kind === 'stall' && i >= fault.afterChunks) return; // connection open, nothing more comes
      if (i > 0) await sleep(config.chunkDelayMs);
      if (closed) return;
      res.write(delta({ content: config.contentParts ? [{ type: 'text', text: piece }] : piece }));
    }
    res.write(delta({}, finishReason));
    if (includeUsage) res.write(frame([], { usage }));
    res.end('data: [DONE]\n\n');
  }

  function embeddings(res: ServerResponse, body: Record<string, unknown>) {
    const dims = embeddingDims(body);
    if (typeof dims !== 'number') return refuse(res, dims);
    const input = (typeof body.input === 'string' ? [body.input] : body.input) as string[];
    const base64 = body.encoding_format === 'base64';
    const tokens = input.reduce<number>((n, t) => n + Math.ceil(t.length / 4), 0);
    return json(res, 200, {
      object: 'list',
      data: input.map((text, index) => {
        const v = fakeEmbedding(text, dims);
        return { object: 'embedding', index, embedding: base64 ? embeddingBase64(v) : v };
      }),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  return {
    requests,
    config,
    faults: faults.queue,
    /** How many calls its faults answered. */
    faultCounts: faults.counts,
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
      if (faults.handle(req, res, path, raw)) return true;
      if (path === '/config' && (method === 'GET' || method === 'POST')) {
        for (const name of ['firstTokenDelayMs', 'chunkDelayMs'] as const) {
          if (typeof body[name] === 'number' && (body[name] as number) >= 0) config[name] = body[name] as number;
        }
        if (typeof body.contentParts === 'boolean') config.contentParts = body.contentParts;
        json(res, 200, config);
        return true;
      }
      if (path === '/next' && method === 'POST') {
        const times = typeof body.times === 'number' ? Math.max(1, Math.min(20, body.times)) : 1;
        for (let i = 0; i < times; i++) {
          queue.push({
            reply: typeof body.reply === 'string' ? body.reply : undefined,
            finishReason: FINISH_REASONS.find((r) => r === body.finishReason),
            fail: body.fail === 'error' || body.fail === 'cut' ? body.fail : undefined,
            cutAfterChunks: typeof body.cutAfterChunks === 'number' ? body.cutAfterChunks : 3,
            status: typeof body.status === 'number' ? body.status : 500,
          });
        }
        json(res, 200, { queued: queue.length });
        return true;
      }
      if (path === '/v1/chat/completions' || path === '/v1/embeddings' || path === '/v1/models') {
        const expected = path === '/v1/models' ? 'GET' : 'POST';
        if (method !== expected) {
          openAiError(res, 405, `Method ${method} not allowed`, 'invalid_request_error');
          return true;
        }
        if (!authorized(req)) {
          openAiError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
          return true;
        }
        const fault = faults.take(path);
        const streamed = body.stream === true && path === '/v1/chat/completions';
        if (fault && (await applyFault(fault, res, streamed ? 'text/event-stream; charset=utf-8' : undefined))) return true;
        if (fault?.kind === 'error') faultAnswer(res, fault);
        else if (path === '/v1/models') json(res, 200, modelList());
        else if (path === '/v1/embeddings') embeddings(res, body);
        else await chat(res, body, fault);
        return true;
      }
      return false;
    },
  };
}

/**
 * The models the local fake model API (`llm.ts`) knows, and how each refuses a request the way OpenAI's API does
 * (providers.md §5):
 * - an unknown model → 404 `model_not_found`; an embedding model asked to chat (or a chat model asked to embed)
 *   → 400 `invalid_request_error`;
 * - reasoning models (o-series, gpt-5; not gpt-5-chat) → 400 `unsupported_parameter` for `max_tokens` ("use
 *   `max_completion_tokens`"), 400 `unsupported_value` for a `temperature` other than 1; chat models →
 *   400 `unsupported_parameter` for `reasoning_effort`;
 * - message `content` is a string or an array of parts (`[{ type: 'text', text }]`); anything else → 400;
 * - embeddings have the model's own dimension (text-embedding-3-small 1536, -3-large 3072, ada-002 1536);
 *   `dimensions` shortens the v3 models' vectors (1 to the full size) and is refused by ada-002.
 */

export interface OpenAiError {
  status: number;
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

const invalid = (message: string, param: string | null = null, code: string | null = null): OpenAiError => ({
  status: 400,
  message,
  type: 'invalid_request_error',
  param,
  code,
});

/** Chat models and whether each is a reasoning model. */
export const CHAT_MODELS: Record<string, { reasoning: boolean }> = {
  'gpt-4o-mini': { reasoning: false },
  'gpt-4o': { reasoning: false },
  'gpt-4.1': { reasoning: false },
  'gpt-4.1-mini': { reasoning: false },
  'gpt-4.1-nano': { reasoning: false },
  'gpt-3.5-turbo': { reasoning: false },
  'gpt-5-chat-latest': { reasoning: false },
  o1: { reasoning: true },
  'o3-mini': { reasoning: true },
  o3: { reasoning: true },
  'o4-mini': { reasoning: true },
  'gpt-5': { reasoning: true },
  'gpt-5-mini': { reasoning: true },
  'gpt-5-nano': { reasoning: true },
};

/** Embedding models: their native dimension and whether `dimensions` may shorten it. */
export const EMBEDDING_MODELS: Record<string, { dims: number; shortenable: boolean }> = {
  'text-embedding-3-small': { dims: 1536, shortenable: true },
  'text-embedding-3-large': { dims: 3072, shortenable: true },
  'text-embedding-ada-002': { dims: 1536, shortenable: false },
};

const modelNotFound = (model: string): OpenAiError => ({
  status: 404,
  message: `The model \`${model}\` does not exist or you do not have access to it.`,
  type: 'invalid_request_error',
  param: null,
  code: 'model_not_found',
});

/** The text of a message's `content` (a string or text parts), or undefined when it is neither. */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  let text = '';
  for (const part of content) {
    if (!part || typeof part !== 'object') return undefined;
    const { type, text: partText } = part as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof partText === 'string') text += partText;
    else if (type !== 'image_url' && type !== 'input_audio' && type !== 'file') return undefined;
  }
  return text;
}

/** Why OpenAI would refuse this chat completion request, or undefined when it would answer it. */
export function chatRefusal(body: Record<string, unknown>): OpenAiError | undefined {
  const model = typeof body.model === 'string' ? body.model : '';
  if (!model) return invalid('you must provide a model parameter', 'model');
  if (!Array.isArray(body.messages) || body.messages.length === 0) return invalid("'messages' must be a non-empty array", 'messages');
  if (EMBEDDING_MODELS[model])
    return invalid(`\`${model}\` is not a chat model and thus not supported in the v1/chat/completions endpoint.`, 'model');
  const known = CHAT_MODELS[model];
  if (!known) return modelNotFound(model);
  for (const [i, m] of (body.messages as unknown[]).entries()) {
    const message = (m ?? {}) as { role?: unknown; content?: unknown };
    if (!['system', 'developer', 'user', 'assistant'].includes(String(message.role))) {
      return invalid(`Invalid value for 'messages[${i}].role'.`, `messages[${i}].role`, 'invalid_value');
    }
    if (contentText(message.content) === undefined) {
      return invalid(
        `Invalid type for 'messages[${i}].content': expected a string or an array of content parts.`,
        `messages[${i}].content`,
        'invalid_type',
      );
    }
  }
  if (known.reasoning && body.max_tokens !== undefined) {
    return invalid(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    );
  }
  if (known.reasoning && body.temperature !== undefined && body.temperature !== 1) {
    return invalid(
      `Unsupported value: 'temperature' does not support ${JSON.stringify(body.temperature)} with this model. Only the default (1) value is supported.`,
      'temperature',
      'unsupported_value',
    );
  }
  if (!known.reasoning && body.reasoning_effort !== undefined) {
    return invalid(
      "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
      'reasoning_effort',
      'unsupported_parameter',
    );
  }
  return undefined;
}

/**
 * The dimension of the embeddings this request gets, or why OpenAI would refuse it.
 */
export function embeddingDims(body: Record<string, unknown>): number | OpenAiError {
  const model = typeof body.model === 'string' ? body.model : '';
  if (!model) return invalid('you must provide a model parameter', 'model');
  if (CHAT_MODELS[model]) return invalid(`\`${model}\` does not support embeddings.`, 'model');
  const known = EMBEDDING_MODELS[model];
  if (!known) return modelNotFound(model);
  const input = body.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input : [];
  if (texts.length === 0 || texts.some((t) => typeof t !== 'string' || t === '')) {
    return invalid("'input' must be a non-empty string or array of non-empty strings.", 'input');
  }
  if (texts.length > 2048) return invalid("'input' may hold at most 2048 items.", 'input');
  if (body.encoding_format !== undefined && body.encoding_format !== 'float' && body.encoding_format !== 'base64') {
    return invalid("Invalid value for 'encoding_format': expected 'float' or 'base64'.", 'encoding_format', 'invalid_value');
  }
  if (body.dimensions === undefined) return known.dims;
  if (!known.shortenable) return invalid('This model does not support specifying dimensions.', 'dimensions', 'unsupported_parameter');
  const d = body.dimensions;
  if (typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > known.dims) {
    return invalid(`Invalid value for 'dimensions': expected an integer from 1 to ${known.dims}.`, 'dimensions', 'invalid_value');
  }
  return d;
}

/** The `GET /v1/models` list. */
export const modelList = () => ({
  object: 'list',
  data: [...Object.keys(CHAT_MODELS), ...Object.keys(EMBEDDING_MODELS)].map((id) => ({
    id,
    object: 'model',
    created: 1_700_000_000,
    owned_by: 'system',
  })),
});

/** OpenAI's error body and headers for a fault's HTTP status (or `code`: `rate_limit_exceeded`, `insufficient_quota`, ...). */
export function faultError(status: number, code?: string | number, message?: string): OpenAiError {
  const c = code === undefined ? undefined : String(code);
  if (status === 401)
    return {
      status,
      message: message ?? 'Incorrect API key provided.',
      type: 'invalid_request_error',
      param: null,
      code: c ?? 'invalid_api_key',
    };
  if (status === 404) return { ...modelNotFound('unknown'), ...(message ? { message } : {}) };
  if (status === 429) {
    const quota = c === 'insufficient_quota';
    return {
      status,
      message:
        message ??
        (quota ? 'You exceeded your current quota, please check your plan and billing details.' : 'Rate limit reached for requests'),
      type: quota ? 'insufficient_quota' : 'requests',
      param: null,
      code: c ?? 'rate_limit_exceeded',
    };
  }
  if (status >= 500) {
    return {
      status,
      message:
        message ??
        (status === 503
          ? 'The engine is currently overloaded, please try again later.'
          : 'The server had an error while processing your request.'),
      type: 'server_error',
      param: null,
      code: c ?? null,
    };
  }
  return { status, message: message ?? 'Invalid request', type: 'invalid_request_error', param: null, code: c ?? null };
}

/**
 * Textbook retrieval (RAG) for the tutor (issue 5 §3; spec Endpoints "internal RAG ingest routes").
 *
 * Ingest: a document `{ gradeId, lessonId?, title, text }` is chunked (`chunking.ts`), each chunk is embedded
 * through the embeddings API (input `title + "\n" + chunk`), and stored:
 * - `RAGDOC#<docId>` / `RAGDOC`: gradeId, lessonId, title, chunkCount, embeddingModel, createdAt;
 * - `RAG#<gradeId>` / `CHUNK#<docId>#<n>`: the chunk's text, title, lessonId, embeddingModel and its vector as a
 *   binary attribute (float32 little-endian; 1536 dimensions are 6 KiB).
 * Chunks are written first and the document item last, so a failed ingest leaves no document (orphan chunks
 * of a failed ingest are ignored by retrieval only if their model differs; re-ingest or delete to clean up).
 *
 * Retrieval: the grade's chunks are read with one Query of `RAG#<gradeId>` (cached per worker for
 * {@link RAG_CACHE_TTL_SECONDS}, dropped on ingest/delete in the same worker), chunks embedded with another
 * model than AI_EMBEDDING_MODEL are ignored (vectors of two models cannot be compared; re-ingest after changing
 * the model), the lesson filter is applied when a lessonId is given, and the {@link RETRIEVE_TOP_K} chunks with
 * the highest cosine similarity to the question's embedding are returned.
 *
 * Bound: a grade's book is small (the seed has a few chunks per grade; a whole grade-5 math book is about
 * 300-600 chunks, 2-4 MB of vectors, a few Query pages), so a brute-force scan per question is fine. Beyond
 * that, move vectors to a vector index (OpenSearch Serverless, pgvector, S3 Vectors) and keep DynamoDB for
 * the documents.
 */
import { DeleteCommand, GetCommand, PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { deleteAll, putAll } from '../db/batch';
import type { Db } from '../db/client';
import { nextId } from '../db/counters';
import { keys } from '../db/keys';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import type { ModelClient } from '../providers/ports';
import { chunkText } from './chunking';
import { tutorErrors } from './errors';

/** Chunks given to the model per question. */
export const RETRIEVE_TOP_K = 3;
/** How long a worker keeps a grade's chunks in memory, seconds. */
export const RAG_CACHE_TTL_SECONDS = 300;
/** Texts per embeddings request when ingesting. */
const EMBED_BATCH = 64;

export interface IngestInput {
  gradeId: number;
  lessonId?: number;
  title: string;
  text: string;
}

export interface RagDocument {
  id: number;
  gradeId: number;
  lessonId: number | null;
  title: string;
  chunks: number;
  embeddingModel: string;
  createdAt: string;
  /** Ids of the earlier documents of the same grade and title that this one replaced. */
  replaced: number[];
}

export interface RagChunk {
  docId: number;
  n: number;
  gradeId: number;
  lessonId: number | null;
  title: string;
  text: string;
  embeddingModel: string;
  vector: Float32Array;
}

export interface ScoredChunk extends RagChunk {
  score: number;
}

const toBinary = (vector: number[]) => new Uint8Array(Float32Array.from(vector).buffer);
const fromBinary = (bytes: Uint8Array) => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return -1;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

const caches = new WeakMap<Db, Map<number, { chunks: RagChunk[]; loadedAt: number }>>();
const cacheOf = (db: Db) => {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
};

/** Every stored chunk of a grade (any model), from the worker's cache when fresh (unless `reload`). */
export async function gradeChunks(deps: Deps, gradeId: number, options: { reload?: boolean } = {}): Promise<RagChunk[]> {
  const cache = cacheOf(deps.db);
  const hit = cache.get(gradeId);
  const now = deps.clock.now();
  if (!options.reload && hit && now - hit.loadedAt < RAG_CACHE_TTL_SECONDS * 1000) return hit.chunks;
  const chunks: RagChunk[] = [];
  const pages = paginateQuery(
    { client: deps.db.doc },
    {
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.ragPartition(gradeId), ':prefix': keys.ragChunkPrefix },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      chunks.push({
        docId: item.docId as number,
        n: item.n as number,
        gradeId: item.gradeId as number,
        lessonId: (item.lessonId as number | undefined) ?? null,
        title: item.title as string,
        text: item.text as string,
        embeddingModel: item.embeddingModel as string,
        vector: fromBinary(item.vector as Uint8Array),
      });
    }
  }
  cache.set(gradeId, { chunks, loadedAt: now });
  return chunks;
}

/**
 * Ingests a textbook document (see the module doc). A document with the grade and title of earlier ones
 * replaces them (after the new chunks are stored), so re-running an ingest, or ingesting again after changing
 * AI_EMBEDDING_MODEL, leaves one copy.
 *
 * Errors: `not_found` (unknown grade), `validation_error` (lessonId not a lesson of the grade; text without
 * content), `assistant_unavailable` (the tutor is off, or the embeddings API failed).
 */
export async function ingestDocument(deps: Deps, input: IngestInput): Promise<RagDocument> {
  const curriculum = await deps.content.get();
  if (!curriculum.grade(input.gradeId)) throw commonErrors.notFound('Grade');
  if (input.lessonId !== undefined && curriculum.lesson(input.lessonId)?.gradeId !== input.gradeId) {
    throw commonErrors.validation('The lesson is not a lesson of this grade', { lessonId: ['Not a lesson of the grade'] });
  }
  const model = deps.model;
  if (!model) throw tutorErrors.off();
  const chunks = chunkText(input.text);
  if (chunks.length === 0) throw commonErrors.validation('The text is empty', { text: ['Must contain text'] });
  const vectors: number[][] = [];
  try {
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      vectors.push(...(await model.embed(chunks.slice(i, i + EMBED_BATCH).map((c) => `${input.title}\n${c}`))));
    }
  } catch {
    throw tutorErrors.modelFailed();
  }
  const id = await nextId(deps.db, 'ragDocument');
  const createdAt = new Date(deps.clock.now()).toISOString();
  await putAll(
    deps.db,
    chunks.map((text, n) => ({
      ...keys.ragChunk(input.gradeId, id, n),
      docId: id,
      n,
      gradeId: input.gradeId,
      ...(input.lessonId !== undefined ? { lessonId: input.lessonId } : {}),
      title: input.title,
      text,
      embeddingModel: model.embeddingModel,
      dims: (vectors[n] as number[]).length,
      vector: toBinary(vectors[n] as number[]),
    })),
  );
  const old = (await gradeChunks(deps, input.gradeId, { reload: true })).filter((c) => c.title === input.title && c.docId !== id);
  const replaced = [...new Set(old.map((c) => c.docId))];
  const document: RagDocument = {
    id,
    gradeId: input.gradeId,
    lessonId: input.lessonId ?? null,
    title: input.title,
    chunks: chunks.length,
    embeddingModel: model.embeddingModel,
    createdAt,
    replaced,
  };
  const { replaced: _replaced, ...item } = document;
  await deps.db.doc.send(new PutCommand({ TableName: deps.db.tableName, Item: { ...keys.ragDocument(id), ...item } }));
  // The replaced documents: their chunks (also orphans of a failed ingest), then their document items.
  await deleteAll(deps.db, [...old.map((c) => keys.ragChunk(c.gradeId, c.docId, c.n)), ...replaced.map((d) => keys.ragDocument(d))]);
  cacheOf(deps.db).delete(input.gradeId);
  return document;
}

/** Removes a document and its chunks. Errors: `not_found`. */
export async function deleteDocument(deps: Deps, id: number): Promise<void> {
  const doc = (await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: keys.ragDocument(id), ConsistentRead: true })))
    .Item as RagDocument | undefined;
  if (!doc) throw commonErrors.notFound('Document');
  await deleteAll(
    deps.db,
    Array.from({ length: doc.chunks }, (_, n) => keys.ragChunk(doc.gradeId, id, n)),
  );
  await deps.db.doc.send(new DeleteCommand({ TableName: deps.db.tableName, Key: keys.ragDocument(id) }));
  cacheOf(deps.db).delete(doc.gradeId);
}

/**
 * The chunks of a grade most similar to `query` (at most {@link RETRIEVE_TOP_K}), best first: only chunks of
 * the current embedding model, only the lesson's chunks when `lessonId` is given. No chunks → [] without an
 * embeddings call. Throws when the embeddings API fails.
 */
export async function retrieve(
  deps: Deps,
  model: ModelClient,
  options: { gradeId: number; lessonId?: number; query: string; k?: number; signal?: AbortSignal },
): Promise<ScoredChunk[]> {
  const candidates = (await gradeChunks(deps, options.gradeId)).filter(
    (c) => c.embeddingModel === model.embeddingModel && (options.lessonId === undefined || c.lessonId === options.lessonId),
  );
  if (candidates.length === 0) return [];
  const [query] = await model.embed([options.query], { signal: options.signal });
  return candidates
    .map((c) => ({ ...c, score: cosine(c.vector, query as number[]) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, options.k ?? RETRIEVE_TOP_K);
}

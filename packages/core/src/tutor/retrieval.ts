/**
 * Textbook retrieval (RAG) for the tutor (issue 5 §3): the chunks of the learner's book closest to a question.
 *
 * The grade's chunks (`chunk.entity.ts`) are read with one Query of their partition and cached per worker for
 * {@link RAG_CACHE_TTL_SECONDS} (dropped on ingest/delete in the same worker, `forgetGrade`). Chunks embedded with
 * another model than AI_EMBEDDING_MODEL are ignored (vectors of two models cannot be compared; re-ingest after
 * changing the model), the lesson filter is applied when a lessonId is given, and the {@link RETRIEVE_TOP_K}
 * chunks with the highest cosine similarity to the question's embedding are returned.
 *
 * Bound: a grade's book is small (the seed has a few chunks per grade; a whole grade-5 math book is about
 * 300-600 chunks, 2-4 MB of vectors, a few Query pages), so a brute-force scan per question is fine. Beyond
 * that, move vectors to a vector index (OpenSearch Serverless, pgvector, S3 Vectors) and keep DynamoDB for
 * the documents.
 */
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import type { ModelClient } from '../providers/ports';
import { type ChunkItem, chunksOfGrade } from './chunk.entity';

/** Chunks given to the model per question. */
export const RETRIEVE_TOP_K = 3;
/** How long a worker keeps a grade's chunks in memory, seconds. */
export const RAG_CACHE_TTL_SECONDS = 300;

export interface ScoredChunk extends ChunkItem {
  /** Cosine similarity to the question, -1..1. */
  score: number;
}

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

const caches = new WeakMap<Db, Map<number, { chunks: ChunkItem[]; loadedAt: number }>>();
const cacheOf = (db: Db) => {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
};

/** Every stored chunk of a grade (any model), from the worker's cache when fresh (unless `reload`). */
export async function gradeChunks(deps: Deps, gradeId: number, options: { reload?: boolean } = {}): Promise<ChunkItem[]> {
  const cache = cacheOf(deps.db);
  const hit = cache.get(gradeId);
  const now = deps.clock.now();
  if (!options.reload && hit && now - hit.loadedAt < RAG_CACHE_TTL_SECONDS * 1000) return hit.chunks;
  const chunks = await chunksOfGrade(deps.db, gradeId);
  cache.set(gradeId, { chunks, loadedAt: now });
  return chunks;
}

/** Drops this worker's cached chunks of a grade (its book changed). */
export const forgetGrade = (db: Db, gradeId: number): void => {
  cacheOf(db).delete(gradeId);
};

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

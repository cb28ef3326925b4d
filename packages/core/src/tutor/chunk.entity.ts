/**
 * A chunk of a textbook document with its embedding vector (issue 5 §3), what retrieval compares a question
 * with.
 *
 * | item  | pk                  | sk                            | notes                                  |
 * |-------|---------------------|-------------------------------|----------------------------------------|
 * | chunk | RAG#<gradeId 4 digits> | CHUNK#<docId 10>#<n 4>     | text + vector (binary); no TTL         |
 *
 * The vector is stored as a binary attribute of float32 little-endian values (1536 dimensions are 6 KiB) and
 * read back as a Float32Array. A grade's chunks are one partition, read with one Query. Not personal data.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { queryAll } from '../db/items';
import { type Key, pad } from '../db/keys';
import { lazySchema } from '../lazySchema';

const CHUNK_PREFIX = 'CHUNK#';
const gradePartition = (gradeId: number): string => `RAG#${pad(gradeId, 4)}`;

export const chunkKey = (gradeId: number, docId: number, n: number): Key => ({
  pk: gradePartition(gradeId),
  sk: `${CHUNK_PREFIX}${pad(docId, 10)}#${pad(n, 4)}`,
});

const toBinary = (vector: number[]) => new Uint8Array(Float32Array.from(vector).buffer);
const fromBinary = (bytes: Uint8Array) => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

export const ChunkItem = lazySchema(() =>
  z
    .object({
      docId: z.number().int().positive(),
      /** Position of the chunk in its document, from 0. */
      n: z.number().int().nonnegative(),
      gradeId: z.number().int().positive(),
      /** The document's lesson; absent for a whole-grade document. */
      lessonId: z.number().int().positive().optional(),
      /** The document's title (retrieval names its source with it). */
      title: z.string(),
      text: z.string(),
      /** The model of `vector`: vectors of two models cannot be compared. */
      embeddingModel: z.string(),
      /** Dimensions of `vector`. */
      dims: z.number().int().positive(),
      vector: z.instanceof(Uint8Array).transform(fromBinary),
    })
    .describe('textbook chunk'),
);
export type ChunkItem = z.infer<typeof ChunkItem>;

/** The stored item of a chunk (key included) with its `vector`, for a bulk write. */
export const chunkItem = (chunk: Omit<ChunkItem, 'vector' | 'dims'>, vector: number[]): Record<string, unknown> => ({
  ...chunkKey(chunk.gradeId, chunk.docId, chunk.n),
  ...chunk,
  dims: vector.length,
  vector: toBinary(vector),
});

/** Every chunk of the grade's book, any model, in key order (all pages; eventually consistent). */
export const chunksOfGrade = (db: Db, gradeId: number): Promise<ChunkItem[]> =>
  queryAll(db, { partition: gradePartition(gradeId), sortKey: { beginsWith: CHUNK_PREFIX }, consistent: false }, ChunkItem);

/**
 * A textbook document ingested for the tutor's retrieval (issue 5 §3; spec Endpoints "internal RAG ingest
 * routes"). Its text lives in its chunks (`chunk.entity.ts`); this item is written last, so a failed ingest
 * leaves no document.
 *
 * | item     | pk              | sk     | notes                                         |
 * |----------|-----------------|--------|-----------------------------------------------|
 * | document | RAGDOC#<docId>  | RAGDOC | docId from the `ragDocument` counter; no TTL   |
 *
 * Not personal data (textbook content).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { deleteItem, getItem, putItem } from '../db/items';
import type { Key } from '../db/keys';
import { lazySchema } from '../lazySchema';

export const documentKey = (docId: number): Key => ({ pk: `RAGDOC#${docId}`, sk: 'RAGDOC' });

export const DocumentItem = lazySchema(() =>
  z
    .object({
      id: z.number().int().positive(),
      gradeId: z.number().int().positive(),
      /** The lesson the document belongs to, or null for the grade's book as a whole. */
      lessonId: z.number().int().positive().nullable(),
      title: z.string(),
      /** How many chunks it has: `CHUNK#<docId>#0` … `CHUNK#<docId>#<chunks - 1>`. */
      chunks: z.number().int().nonnegative(),
      /** The embedding model of its vectors (AI_EMBEDDING_MODEL at ingest). */
      embeddingModel: z.string(),
      /** ISO time. */
      createdAt: z.string(),
    })
    .describe('textbook document'),
);
export type DocumentItem = z.infer<typeof DocumentItem>;

/** The document `docId`, or undefined (strongly consistent). */
export const getDocument = (db: Db, docId: number): Promise<DocumentItem | undefined> => getItem(db, documentKey(docId), DocumentItem);

/** Stores `document` under its id, replacing an earlier item of that id. */
export const putDocument = (db: Db, document: DocumentItem): Promise<void> => putItem(db, { ...documentKey(document.id), ...document });

/** Deletes the document item `docId` (not its chunks). */
export const deleteDocumentItem = (db: Db, docId: number): Promise<void> => deleteItem(db, documentKey(docId));

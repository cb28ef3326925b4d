/**
 * Textbook ingest for the tutor's retrieval (issue 5 §3; spec Endpoints "internal RAG ingest routes").
 *
 * A document `{ gradeId, lessonId?, title, text }` is chunked (`chunking.ts`), each chunk is embedded through
 * the embeddings API (input `title + "\n" + chunk`, {@link EMBED_BATCH} per request), and stored: the chunks
 * (`chunk.entity.ts`) first and the document item (`document.entity.ts`) last, so a failed ingest leaves no
 * document (orphan chunks of a failed ingest are removed by the next ingest of the same grade and title).
 */
import { deleteAll, putAll } from '../db/batch';
import { nextId } from '../db/counters';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { chunkItem, chunkKey } from './chunk.entity';
import { chunkText } from './chunking';
import { type DocumentItem, deleteDocumentItem, documentKey, getDocument, putDocument } from './document.entity';
import { tutorErrors } from './errors';
import { forgetGrade, gradeChunks } from './retrieval';

/** Texts per embeddings request when ingesting. */
const EMBED_BATCH = 64;

export interface IngestInput {
  gradeId: number;
  lessonId?: number;
  title: string;
  text: string;
}

/** A stored document as the ingest route returns it. */
export interface RagDocument extends DocumentItem {
  /** Ids of the earlier documents of the same grade and title that this one replaced. */
  replaced: number[];
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
  const about = { docId: id, gradeId: input.gradeId, lessonId: input.lessonId, title: input.title, embeddingModel: model.embeddingModel };
  await putAll(
    deps.db,
    chunks.map((text, n) => chunkItem({ ...about, n, text }, vectors[n] as number[])),
  );
  const old = (await gradeChunks(deps, input.gradeId, { reload: true })).filter((c) => c.title === input.title && c.docId !== id);
  const replaced = [...new Set(old.map((c) => c.docId))];
  const document: DocumentItem = {
    id,
    gradeId: input.gradeId,
    lessonId: input.lessonId ?? null,
    title: input.title,
    chunks: chunks.length,
    embeddingModel: model.embeddingModel,
    createdAt,
  };
  await putDocument(deps.db, document);
  // The replaced documents: their chunks (also orphans of a failed ingest), then their document items.
  await deleteAll(deps.db, [...old.map((c) => chunkKey(c.gradeId, c.docId, c.n)), ...replaced.map(documentKey)]);
  forgetGrade(deps.db, input.gradeId);
  return { ...document, replaced };
}

/** Removes a document and its chunks. Errors: `not_found`. */
export async function deleteDocument(deps: Deps, id: number): Promise<void> {
  const doc = await getDocument(deps.db, id);
  if (!doc) throw commonErrors.notFound('Document');
  await deleteAll(
    deps.db,
    Array.from({ length: doc.chunks }, (_, n) => chunkKey(doc.gradeId, id, n)),
  );
  await deleteDocumentItem(deps.db, id);
  forgetGrade(deps.db, doc.gradeId);
}

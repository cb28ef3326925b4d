/**
 * Seeds the tutor's textbook: the excerpts of `seed/textbook.ts` (three per grade) are ingested like
 * `POST /api/internal/rag/documents` would (issue 5 §3: "Seed a short textbook excerpt per grade so the local
 * stack answers from it"). Kept apart from `ingest.ts` so a Lambda that ingests does not bundle the excerpts.
 */
import type { Deps } from '../deps';
import { ingestDocument } from './ingest';
import { gradeChunks } from './retrieval';
import { textbookExcerpts } from './seed/textbook';

/**
 * Ingests the seed textbook excerpts that the table does not hold yet for the current embedding model (same
 * grade and title). Used by the local stack at start; in AWS run `scripts/ingest-textbook.ts` against the
 * deployed ingest route. Returns how many documents it ingested; 0 when the tutor is off.
 */
export async function seedTextbook(deps: Deps): Promise<number> {
  const model = deps.model;
  if (!model) return 0;
  let ingested = 0;
  for (const excerpt of textbookExcerpts) {
    const existing = await gradeChunks(deps, excerpt.gradeId);
    if (existing.some((c) => c.title === excerpt.title && c.embeddingModel === model.embeddingModel)) continue;
    await ingestDocument(deps, excerpt);
    ingested++;
  }
  return ingested;
}

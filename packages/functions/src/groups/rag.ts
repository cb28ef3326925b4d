/**
 * Endpoint group `rag` (issue 5 §3; spec Endpoints "internal RAG ingest routes"): textbook ingest, internal
 * only (header `X-Internal-Key`; closed when INTERNAL_SERVICE_KEY is unset and in debug mode).
 * - `POST /api/internal/rag/documents` `{ gradeId, lessonId?, title (≤ 200), text (≤ 200 000 characters; body ≤ 1 MiB) }` → 201
 *   `{ id, gradeId, lessonId, title, chunks, embeddingModel, createdAt }`.
 * - `DELETE /api/internal/rag/documents/{id}` → 204.
 */
import { lazySchema } from '@mathisland/core';
import { openAiModel } from '@mathisland/core/providers/model';
import { deleteDocument, ingestDocument } from '@mathisland/core/tutor';
import * as z from 'zod';
import { ragRoutes } from '../../../../infra/routes/rag';
import { defineGroup } from '../lib/group';
import { HttpResponse } from '../lib/http';
import { created, noContent } from '../lib/responses';
import { type RouteInput, route } from '../lib/route';
import { Id, IsoTime, responseShape } from '../lib/shapes';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const NewDocument = lazySchema(() =>
  z.strictObject({
    gradeId: id,
    lessonId: id.optional(),
    title: z.string().trim().min(1).max(200),
    text: z.string().min(1).max(200_000),
  }),
);

const Ingested = responseShape(() =>
  z.object({
    id: Id,
    gradeId: Id,
    lessonId: Id.nullable(),
    title: z.string(),
    chunks: z.number().int().min(0),
    embeddingModel: z.string(),
    createdAt: IsoTime,
    replaced: z.array(Id).meta({ description: 'Ids of earlier documents of the same title this one replaced' }),
  }),
);

const ingest = ({ deps, body }: RouteInput<z.infer<typeof NewDocument>, unknown>) => ingestDocument(deps, body);

async function remove({ deps, id: docId }: RouteInput<undefined, unknown>) {
  await deleteDocument(deps, docId);
  return new HttpResponse(204);
}

export const { handler, createHandler, routes } = defineGroup(
  ragRoutes,
  {
    'POST /api/internal/rag/documents': route.internal({
      maxBodyBytes: 1024 * 1024,
      body: NewDocument,
      ...created(Ingested, 'Chunked, embedded and stored'),
      errors: { not_found: 'No such grade or lesson.', assistant_unavailable: 'The embedding model is off or failed.' },
      run: ingest,
    }),
    'DELETE /api/internal/rag/documents/{id}': route.internal({
      responses: { 204: noContent('Removed with its chunks') },
      errors: { not_found: 'No such document.' },
      run: remove,
    }),
  },
  { adapters: { model: openAiModel } },
);

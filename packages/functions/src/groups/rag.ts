/**
 * Endpoint group `rag` (issue 5 §3; spec Endpoints "internal RAG ingest routes"): textbook ingest, internal
 * only (header `X-Internal-Key`; closed when INTERNAL_SERVICE_KEY is unset and in debug mode).
 * - `POST /api/internal/rag/documents` `{ gradeId, lessonId?, title (≤ 200), text (≤ 200 000 characters; body ≤ 1 MiB) }` → 201
 *   `{ id, gradeId, lessonId, title, chunks, embeddingModel, createdAt }`.
 * - `DELETE /api/internal/rag/documents/{id}` → 204.
 */
import { deleteDocument, ingestDocument } from '@mathisland/core/tutor/index';
import { z } from 'zod';
import { defineGroup, route } from '../lib/group';
import { HttpResponse } from '../lib/types';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const { handler, routes } = defineGroup('rag', {
  'POST /api/internal/rag/documents': route({
    status: 201,
    maxBodyBytes: 1024 * 1024,
    body: z.strictObject({
      gradeId: id,
      lessonId: id.optional(),
      title: z.string().trim().min(1).max(200),
      text: z.string().min(1).max(200_000),
    }),
    run: ({ deps, body }) => ingestDocument(deps, body),
  }),
  'DELETE /api/internal/rag/documents/{id}': route({
    run: async ({ deps, id: docId }) => {
      await deleteDocument(deps, docId);
      return new HttpResponse(204);
    },
  }),
});

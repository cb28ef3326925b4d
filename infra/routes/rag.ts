/** The routes of endpoint group `rag` (`packages/functions/src/groups/rag.ts`). */
import type { RouteSpec } from './types';

export const ragRoutes: readonly RouteSpec[] = [
  {
    method: 'POST',
    path: '/api/internal/rag/documents',
    group: 'rag',
    auth: 'internal',
    throttle: 'rag_document_create',
    summary: 'Ingest textbook text of a grade (and lesson): chunked, embedded, stored for retrieval.',
  },
  {
    method: 'DELETE',
    path: '/api/internal/rag/documents/{id}',
    group: 'rag',
    auth: 'internal',
    throttle: 'rag_document_delete',
    summary: 'Remove an ingested textbook document and its chunks.',
  },
];

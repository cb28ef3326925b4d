/**
 * Ingests the seed textbook excerpts (`textbookExcerpts` of `@mathisland/core/tutor`) into a deployed stage
 * through `POST /api/internal/rag/documents` (DESIGN §2 "textbook ingest"; issue 5 §3). The local stack does this
 * by itself at start; in AWS the deploy-time migrations cannot (they have no model key), so run this once per
 * stage, and again after changing AI_EMBEDDING_MODEL: a document with the grade and title of an earlier one
 * replaces it.
 *
 *   API_URL=https://<the stage's public origin> INTERNAL_SERVICE_KEY=... npx tsx scripts/ingest-textbook.ts
 *
 * API_URL is the stage's public address (the Url output, PUBLIC_BASE_URL): the API's own endpoint refuses requests
 * that do not come through CloudFront (403 forbidden_origin; docs/deploy.md "The edge").
 */
import { textbookExcerpts } from '@mathisland/core/tutor';

const apiUrl = process.env.API_URL?.replace(/\/+$/, '');
const key = process.env.INTERNAL_SERVICE_KEY;
if (!apiUrl || !key) {
  console.error('Set API_URL (the stage’s public address: the Url output) and INTERNAL_SERVICE_KEY (from the stage secret).');
  process.exit(1);
}

for (const excerpt of textbookExcerpts) {
  const response = await fetch(`${apiUrl}/api/internal/rag/documents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-key': key },
    body: JSON.stringify(excerpt),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) {
    console.error(`grade ${excerpt.gradeId} "${excerpt.title}": ${response.status} ${JSON.stringify(body)}`);
    process.exit(1);
  }
  console.log(
    `grade ${excerpt.gradeId} "${excerpt.title}": document ${body.id}, ${body.chunks} chunks, replaced ${JSON.stringify(body.replaced)}`,
  );
}

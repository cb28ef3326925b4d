/**
 * `npm run openapi [-- <file> [--compact]]`: writes the OpenAPI 3.1 document generated from the route definitions (DESIGN §10) to
 * `<file>` (default `.build/apidocs/openapi.json`), or to standard output with `-`; `--compact` leaves out the indentation. `stacks/Api.ts` runs it when it
 * bundles the `docs` function, which serves the file at `/api/schema/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { API_DOCS_DIR, OPENAPI_FILE } from '../infra/apiDocs';
import { apiDocument } from '../packages/local/src/apiDocs';

const [target = `.build/${API_DOCS_DIR}/${OPENAPI_FILE}`, ...flags] = process.argv.slice(2);
const document = await apiDocument();
const text = flags.includes('--compact') ? JSON.stringify(document) : `${JSON.stringify(document, null, 2)}\n`;
if (target === '-') process.stdout.write(text);
else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}

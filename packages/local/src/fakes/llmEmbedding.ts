/**
 * Embeddings of the local fake model (`llm.ts`): a hashed bag of words ({@link fakeEmbedding}, L2-normalized, as
 * many dimensions as the model asked for has: 1536 for text-embedding-3-small, 3072 for -3-large, or `dimensions`;
 * `llmModels.ts`; {@link EMBEDDING_DIMS} when none is given) over folded text (the tutor's `fold`: Persian digits and
 * letter forms; `3/4`-style fractions kept as words and also split), plus a small English ↔ Persian concept map
 * (add/جمع, fraction/کسر, area/مساحت, ...) so that an English question finds the Persian textbook.
 * Deterministic, so retrieval in tests and the offline demo always picks the same sections.
 */
import { fold } from '@mathisland/core/tutor';

export const EMBEDDING_DIMS = 256;

const STOPWORDS = new Set(
  'the a an and or of to in on is are was be do does did i you me my it this that how what why which can with for at by from please'
    .split(' ')
    .concat('و در به از که را این آن با است هست می من تو ما چه چرا چطور چگونه یک برای هم کن کنم کنیم'.split(' ')),
);

const CONCEPTS: Record<string, string[]> = {
  add: ['add', 'adding', 'addition', 'plus', 'sum', 'جمع'],
  subtract: ['subtract', 'subtracting', 'subtraction', 'minus', 'difference', 'تفریق'],
  fraction: ['fraction', 'fractions', 'کسر'],
  denominator: ['denominator', 'denominators', 'مخرج'],
  numerator: ['numerator', 'numerators', 'صورت'],
  decimal: ['decimal', 'decimals', 'اعشاری', 'اعشار'],
  tenth: ['tenth', 'tenths', 'دهم'],
  hundredth: ['hundredth', 'hundredths', 'صدم'],
  thousandth: ['thousandth', 'thousandths', 'هزارم'],
  area: ['area', 'مساحت'],
  perimeter: ['perimeter', 'محیط'],
  triangle: ['triangle', 'triangles', 'مثلث'],
  rectangle: ['rectangle', 'rectangles', 'مستطیل'],
  square: ['square', 'squares', 'مربع'],
  height: ['height', 'ارتفاع'],
  base: ['base', 'قاعده'],
  multiply: ['multiply', 'times', 'product', 'ضرب'],
  divide: ['divide', 'division', 'تقسیم'],
  mixed: ['mixed', 'مخلوط'],
};
const conceptOf = new Map<string, string>();
for (const [concept, words] of Object.entries(CONCEPTS)) for (const w of words) conceptOf.set(fold(w), `concept:${concept}`);

/** Words of `text` for the bag: folded, fractions kept whole and also split, Persian plural `ها` dropped. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of fold(text).split(/[^\p{L}\p{N}/]+/u)) {
    if (!raw) continue;
    const parts = /^\d+\/\d+$/.test(raw) ? [raw, ...raw.split('/')] : raw.split('/');
    for (let w of parts) {
      if (!w || STOPWORDS.has(w)) continue;
      if (w.length > 3 && w.endsWith('ها')) w = w.slice(0, -2).trim();
      out.push(w);
    }
  }
  return out;
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fake's embedding of `text`: a hashed bag of words and concepts, L2-normalized. */
export function fakeEmbedding(text: string, dims = EMBEDDING_DIMS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of words(text)) {
    const features = [w];
    const concept = conceptOf.get(w);
    if (concept) features.push(concept, concept);
    for (const f of features) {
      const h = hash(f);
      v[h % dims] = (v[h % dims] as number) + (h & 0x80000000 ? -1 : 1);
    }
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm ? v.map((x) => x / norm) : v;
}

/** `v` as the API's base64 encoding: little-endian float32 values. */
export const embeddingBase64 = (v: number[]): string => Buffer.from(Float32Array.from(v).buffer).toString('base64');

/**
 * The panel's words are written `[Persian, English]` side by side, so the two languages cannot drift apart (a key is
 * in both or in neither); {@link pick} takes one language's tree from such a table.
 */
export type Pair = readonly [fa: string, en: string];
export interface Bilingual {
  [key: string]: Pair | Bilingual;
}

/** One language's messages of a `[Persian, English]` table. */
export function pick(tree: Bilingual, locale: 'fa' | 'en'): Record<string, any> {
  const index = locale === 'fa' ? 0 : 1;
  return Object.fromEntries(
    Object.entries(tree).map(([key, value]) => [key, Array.isArray(value) ? (value as Pair)[index] : pick(value as Bilingual, locale)]),
  );
}

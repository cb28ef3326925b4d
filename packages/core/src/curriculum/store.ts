/**
 * The per-worker curriculum cache (`Deps.content`): content changes only through migrations, so a worker
 * loads it from the table at most every {@link CONTENT_TTL_SECONDS}. Loading costs one Query page per grade
 * plus one for the grade index (`content.entity.ts`). `deps.ts` and `wiring.ts` build it from here; the shapes
 * live in `model.ts`.
 */
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { buildCurriculum } from './build';
import { readGradeContent, readGradeIndex } from './content.entity';
import type { ContentStore, Curriculum } from './model';

export type { ContentStore, Curriculum, CurriculumNode, Grade, Lesson, Question, Unit } from './model';

export const CONTENT_TTL_SECONDS = 300;

/** Reads every grade's content from the table. */
export async function loadCurriculum(db: Db): Promise<Curriculum> {
  const index = await readGradeIndex(db);
  const perGrade = await Promise.all(index.map((g) => readGradeContent(db, g.id)));
  return buildCurriculum(perGrade.flat());
}

/** The cache of one worker; concurrent first reads share one load. */
export function createContentStore(db: Db, clock: Clock): ContentStore {
  let cached: { curriculum: Curriculum; loadedAt: number } | undefined;
  let loading: Promise<Curriculum> | undefined;
  return {
    async get() {
      if (cached && clock.now() - cached.loadedAt < CONTENT_TTL_SECONDS * 1000) return cached.curriculum;
      loading ??= loadCurriculum(db)
        .then((curriculum) => {
          cached = { curriculum, loadedAt: clock.now() };
          return curriculum;
        })
        .finally(() => {
          loading = undefined;
        });
      return loading;
    },
    invalidate() {
      cached = undefined;
    },
    state() {
      return { loaded: Boolean(cached), ageSeconds: cached ? Math.round((clock.now() - cached.loadedAt) / 1000) : null };
    },
  };
}

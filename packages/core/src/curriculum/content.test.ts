/** The content items' key layout and attributes (content.entity.ts), and the curriculum built from them (build.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildCurriculum } from './build';
import { ContentItem, contentItemsOf } from './content.entity';
import { seedGrades } from './seed/load';
import type { SeedGrade, SeedQuestion } from './seed/types';

const lesson = (id: number, questions: SeedQuestion[] = []) => ({
  id,
  title: `lesson ${id}`,
  body: `body ${id}`,
  questions,
});

const mini: SeedGrade = {
  id: 4,
  title: 'grade 4',
  units: [
    {
      id: 401,
      title: 'unit 1',
      nodes: [
        {
          id: 4001,
          title: 'node 1',
          lessons: [
            lesson(40011),
            lesson(40012, [
              { id: 400121, type: 'choice', text: 'q1', choices: [{ id: 'a', text: '1' }], answer: 'a' },
              { id: 400122, type: 'number', text: 'q2', answer: '42' },
            ]),
          ],
        },
      ],
    },
    { id: 402, title: 'unit 2', nodes: [{ id: 4002, title: 'node 2', lessons: [lesson(40021)] }] },
  ],
};

describe('content items', () => {
  it('keeps the key layout and attributes of the table', () => {
    const items = contentItemsOf(mini);
    expect(items.map((i) => `${i.pk} ${i.sk}`)).toEqual([
      'CONTENT GRADE#0004',
      'CONTENT#0004 GRADE#0000000004',
      'CONTENT#0004 UNIT#0000000401',
      'CONTENT#0004 NODE#0000004001',
      'CONTENT#0004 LESSON#0000040011',
      'CONTENT#0004 LESSON#0000040012',
      'CONTENT#0004 QUESTION#0000400121',
      'CONTENT#0004 QUESTION#0000400122',
      'CONTENT#0004 UNIT#0000000402',
      'CONTENT#0004 NODE#0000004002',
      'CONTENT#0004 LESSON#0000040021',
    ]);
    expect(items[3]).toEqual({
      pk: 'CONTENT#0004',
      sk: 'NODE#0000004001',
      kind: 'NODE',
      id: 4001,
      unitId: 401,
      gradeId: 4,
      title: 'node 1',
    });
    expect(items[7]).toEqual({
      pk: 'CONTENT#0004',
      sk: 'QUESTION#0000400122',
      kind: 'QUESTION',
      id: 400122,
      lessonId: 40012,
      nodeId: 4001,
      gradeId: 4,
      type: 'number',
      text: 'q2',
      answer: '42',
    });
    expect(items[7]).not.toHaveProperty('choices');
  });

  // The migration 0001 wrote these items to every table seeded so far and is never applied again: a change of
  // the seed files would reach new tables only. Changing content takes a new migration (and a new hash here).
  it('writes exactly the items migration 0001 has always written', async () => {
    const items = (await seedGrades()).flatMap(contentItemsOf);
    expect(items).toHaveLength(488);
    expect(createHash('sha256').update(JSON.stringify(items)).digest('hex')).toBe(
      'cad4add751b3aaa64831f60eb8ecc200d2c02e9a10cf895f1996cce086908697',
    );
  });
});

describe('buildCurriculum', () => {
  // As read back from the table: parsed with the entity schema, key attributes dropped, in sort-key order.
  const stored = contentItemsOf(mini)
    .slice(1)
    .map((item) => ContentItem.parse(item))
    .sort((a, b) => a.kind.localeCompare(b.kind) || b.id - a.id);
  const curriculum = buildCurriculum(stored);

  it('nests the items and places the nodes on the map across units', () => {
    expect(curriculum.counts).toEqual({ grades: 1, units: 2, nodes: 2, lessons: 3, questions: 2 });
    expect(curriculum.grade(4)?.units.map((u) => u.id)).toEqual([401, 402]);
    expect(curriculum.node(4001)).toMatchObject({ index: 0, previousNodeId: null, nextNodeId: 4002 });
    expect(curriculum.node(4002)).toMatchObject({ index: 1, previousNodeId: 4001, nextNodeId: null });
    expect(curriculum.nodeQuestions(4001).map((q) => q.id)).toEqual([400121, 400122]);
    expect(curriculum.lesson(40012)?.body).toBe('body 40012');
    expect(curriculum.question(400121)).toEqual({
      id: 400121,
      lessonId: 40012,
      nodeId: 4001,
      gradeId: 4,
      type: 'choice',
      text: 'q1',
      choices: [{ id: 'a', text: '1' }],
      answer: 'a',
    });
    expect(curriculum.question(999)).toBeUndefined();
  });

  it('refuses a stored item of an unknown kind or with a missing attribute', () => {
    expect(ContentItem.safeParse({ kind: 'CHAPTER', id: 1, title: 't' }).success).toBe(false);
    expect(ContentItem.safeParse({ kind: 'NODE', id: 4001, gradeId: 4, title: 't' }).success).toBe(false);
  });
});

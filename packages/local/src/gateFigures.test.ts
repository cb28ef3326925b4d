/**
 * The tutor's topic gate measured on its labelled sets (issue 16 §1, issue 26 §2), the figures `docs/tutor.md` shows.
 *
 * Sets: every JSON file of `packages/core/src/tutor/gate/eval/` — `{ name, heldOut, _doc, firstRun?, items: [{ id,
 * lang, category, label: 'math' | 'off_topic', text, context? }] }`. The development set is what the classifier was
 * built on; a held-out set is written after the classifier was frozen and committed before its first run.
 *
 * Each request goes through stage 1 (`screenRequest`: safety, then the topic classifier; passing means the verdict
 * `ask`), through the local fake model's scope rule alone (`fakes/llmScope.ts`, with the prompt's rule, a practice
 * question for context `question`, an earlier math exchange for a `follow_up`), and through both (answered when
 * both pass). Figures: math recall (math requests passed / math requests) and off-topic recall (off-topic requests
 * refused / off-topic requests), per set and language.
 *
 * Checks: the development set keeps stage 1 and the fake at 99% math recall and 95% off-topic recall; a held-out set
 * never falls below its first run. `npm run tutor:gate-figures` (UPDATE_GATE_FIGURES=1) rewrites the table in
 * docs/tutor.md and records the first run of a held-out set that has none (`firstRun`, never edited afterwards);
 * without it the test fails when the table is not the one of this code or a held-out set has no first run.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { screenRequest } from '@mathisland/core/tutor';
import { describe, expect, it } from 'vitest';
import { type ChatTurn, isOffTopic } from './fakes/llmScope';

interface Item {
  id: string;
  lang: 'fa' | 'en';
  category: string;
  label: 'math' | 'off_topic';
  text: string;
  context?: 'book' | 'lesson' | 'question';
}

interface Recall {
  mathRecall: number;
  offTopicRecall: number;
}

interface Figures {
  requests: number;
  math: number;
  offTopic: number;
  stage1: Recall;
  fake: Recall;
  both: Recall;
}

interface EvalSet {
  file: string;
  name: string;
  heldOut: boolean;
  firstRun?: { date: string } & Pick<Figures, 'stage1' | 'fake' | 'both'>;
  items: Item[];
}

const DIR = new URL('../../core/src/tutor/gate/eval/', import.meta.url);
const DOC = new URL('../../../docs/tutor.md', import.meta.url);
const START = '<!-- gate-figures:start (written by packages/local/src/gateFigures.test.ts) -->';
const END = '<!-- gate-figures:end -->';
const UPDATE = process.env.UPDATE_GATE_FIGURES === '1';

const read = (file: string): EvalSet => ({ file, ...JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) });
/** The development set first, then the held-out sets in the order of their file names. */
const SETS: EvalSet[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map(read)
  .sort((a, b) => Number(a.heldOut) - Number(b.heldOut));

const SYSTEM =
  'Rules:\n1. Scope: you only help with math. If the message is not about math, answer with exactly [[OFF_TOPIC]] and nothing else.';
const EARLIER: ChatTurn[] = [
  { role: 'user', content: 'what is 3/4 + 1/8?' },
  { role: 'assistant', content: '3/4 = 6/8, and 6/8 + 1/8 = 7/8.' },
];

/** `decide` remembered per item (the table asks each item several times). */
function memo(decide: (item: Item) => boolean): (item: Item) => boolean {
  const seen = new Map<Item, boolean>();
  return (item) => seen.get(item) ?? seen.set(item, decide(item)).get(item) === true;
}
const stage1Passes = memo((item) => screenRequest(item.text, item.context ?? 'book').kind === 'ask');
const fakePasses = memo(
  (item) =>
    !isOffTopic(
      item.text,
      item.context === 'question' ? `${SYSTEM}\n\nPractice question:\n۳۰۸ × ۷ = ?` : SYSTEM,
      item.category === 'follow_up' ? EARLIER : [],
    ),
);

function recall(items: Item[], passes: (item: Item) => boolean): Recall {
  const math = items.filter((i) => i.label === 'math');
  const off = items.filter((i) => i.label !== 'math');
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return {
    mathRecall: ratio(math.filter(passes).length, math.length),
    offTopicRecall: ratio(off.filter((i) => !passes(i)).length, off.length),
  };
}

function figures(items: Item[]): Figures {
  const math = items.filter((i) => i.label === 'math').length;
  return {
    requests: items.length,
    math,
    offTopic: items.length - math,
    stage1: recall(items, stage1Passes),
    fake: recall(items, fakePasses),
    both: recall(items, (i) => stage1Passes(i) && fakePasses(i)),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const cells = (f: Pick<Figures, 'stage1' | 'fake' | 'both'>) =>
  [f.stage1, f.fake, f.both].map((r) => `${pct(r.mathRecall)} | ${pct(r.offTopicRecall)}`).join(' | ');

function table(): string {
  const rows: string[] = [];
  for (const set of SETS) {
    const parts: [string, Item[]][] = [
      ['', set.items],
      [', Persian', set.items.filter((i) => i.lang === 'fa')],
      [', English', set.items.filter((i) => i.lang === 'en')],
    ];
    for (const [suffix, items] of parts) {
      const f = figures(items);
      rows.push(`| ${set.name}${suffix} | ${f.requests} (${f.math} math, ${f.offTopic} off-topic) | ${cells(f)} |`);
    }
    if (set.firstRun) rows.push(`| ${set.name}: its first run (${set.firstRun.date}) | | ${cells(set.firstRun)} |`);
  }
  return [
    START,
    '| set | requests | stage 1: math recall | stage 1: off-topic recall | fake model: math recall | fake model: off-topic recall | both stages: math recall | both stages: off-topic recall |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

const misses = (set: EvalSet, passes: (item: Item) => boolean) =>
  set.items
    .filter((i) => passes(i) !== (i.label === 'math'))
    .map((i) => `${i.id} ${i.label}: ${i.text}`)
    .join('\n');

// Stage 1 takes a few milliseconds a request (typo matching): the ~900 development requests take seconds on a busy
// machine, more than vitest's 5 s default.
describe('the tutor’s topic gate on its labelled sets', { timeout: 60_000 }, () => {
  it('has a development set and held-out sets of at least 200 requests each, in Persian and English', () => {
    expect(SETS.filter((s) => !s.heldOut).map((s) => s.name)).toEqual(['development']);
    const ids = SETS.flatMap((s) => s.items.map((i) => i.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const set of SETS.filter((s) => s.heldOut)) {
      expect(set.items.length, set.name).toBeGreaterThanOrEqual(200);
      for (const lang of ['fa', 'en']) expect(set.items.filter((i) => i.lang === lang).length, set.name).toBeGreaterThanOrEqual(80);
      for (const label of ['math', 'off_topic']) expect(set.items.filter((i) => i.label === label).length, set.name).toBeGreaterThan(50);
    }
  });

  it('keeps 99% math recall and 95% off-topic recall on the development set, at stage 1 and in the fake model', () => {
    const [dev] = SETS as [EvalSet];
    const f = figures(dev.items);
    expect(f.stage1.mathRecall, misses(dev, stage1Passes)).toBeGreaterThanOrEqual(0.99);
    expect(f.stage1.offTopicRecall, misses(dev, stage1Passes)).toBeGreaterThanOrEqual(0.95);
    expect(f.fake.mathRecall, misses(dev, fakePasses)).toBeGreaterThanOrEqual(0.99);
    expect(f.fake.offTopicRecall, misses(dev, fakePasses)).toBeGreaterThanOrEqual(0.95);
  });

  it.each(SETS.filter((s) => s.heldOut).map((s) => s.file))('records the first run of %s and never falls below it', (file) => {
    const set = SETS.find((s) => s.file === file) as EvalSet;
    const f = figures(set.items);
    if (!set.firstRun && UPDATE) {
      const raw = JSON.parse(readFileSync(new URL(file, DIR), 'utf8'));
      raw.firstRun = { date: new Date().toISOString().slice(0, 10), stage1: f.stage1, fake: f.fake, both: f.both };
      writeFileSync(new URL(file, DIR), `${JSON.stringify(raw, null, 2)}\n`);
      set.firstRun = raw.firstRun;
    }
    expect(set.firstRun, `${file} has no first run: run \`npm run tutor:gate-figures\``).toBeDefined();
    const first = set.firstRun as NonNullable<EvalSet['firstRun']>;
    for (const stage of ['stage1', 'fake', 'both'] as const) {
      const m = misses(set, stage === 'stage1' ? stage1Passes : stage === 'fake' ? fakePasses : (i) => stage1Passes(i) && fakePasses(i));
      expect(f[stage].mathRecall, `${stage}\n${m}`).toBeGreaterThanOrEqual(first[stage].mathRecall);
      expect(f[stage].offTopicRecall, `${stage}\n${m}`).toBeGreaterThanOrEqual(first[stage].offTopicRecall);
    }
  });

  it('reports the figures of this code in docs/tutor.md', () => {
    const doc = readFileSync(DOC, 'utf8');
    const [before, rest] = doc.split(START);
    const after = rest?.split(END)[1];
    expect(after, `docs/tutor.md needs a ${START} … ${END} block`).toBeDefined();
    const updated = `${before}${table()}${after}`;
    if (UPDATE) writeFileSync(DOC, updated);
    else expect(doc, 'docs/tutor.md shows other figures: run `npm run tutor:gate-figures`').toBe(updated);
  });
});

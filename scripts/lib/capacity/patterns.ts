/**
 * The key patterns of the capacity model (model.ts; docs/capacity.md): how a recorded access (a partition key of the
 * table or of an index, and an item) is named in the report and analysed: a learner's own key, a sharded class whose
 * shards share its load, per-worker reads, the tie index's ranges. A key no pattern names is its own pattern, named
 * by its key with the digits and days replaced.
 */
import { HISTOGRAM_SHARDS, TIE_SHARDS } from '@mathisland/core/leaderboard';
import { DAY_COUNTER_SHARDS } from '@mathisland/core/stats';
import type { Access } from './recorder';

export interface Pattern {
  /** How the pattern reads in the report. */
  name: string;
  index: 'table' | 'gsi1' | 'gsi2';
  re: RegExp;
  /** A key of one learner: its load does not grow with the learners. */
  perLearner?: boolean;
  /** Shards of a class: its keys share its load equally; `classOf` names the class from the match. */
  shards?: number;
  classOf?: (m: RegExpExecArray) => string;
  /** Items of a class: shards and class name (with the item's sort key). */
  itemShards?: number;
  itemClassOf?: (m: RegExpExecArray, sk: string) => string;
  /** Reads made once per worker (a cache filled), not per request. */
  workerReads?: boolean;
  /** Ranges that hold as many items as learners at one XP value (the tie index). */
  tieRanges?: boolean;
}

/** The named patterns, first match wins. */
export const PATTERNS: Pattern[] = [
  { name: 'USER#<id> (a learner’s items)', index: 'table', re: /^USER#\d+$/, perLearner: true },
  { name: 'SESSION# / PHONE# / PUBLICID# / OTP#', index: 'table', re: /^(SESSION|PHONE|PUBLICID|OTP)#/, perLearner: true },
  { name: 'THROTTLE#<scope>#user:<id>', index: 'table', re: /^THROTTLE#[^#]+#user:/, perLearner: true },
  {
    name: 'BOARDXP#<board>#<shard> (XP histogram)',
    index: 'table',
    re: /^(BOARDXP#.+)#(\d{2})$/,
    shards: HISTOGRAM_SHARDS,
    classOf: (m) => m[1] as string,
    itemShards: HISTOGRAM_SHARDS,
    itemClassOf: (m, sk) => `${m[1]} xp ${Number(sk)}`,
  },
  {
    name: 'gsi1 BOARD#<board>#<xp>#<tie shard> (tie index)',
    index: 'gsi1',
    re: /^(BOARD#.+#\d{10})#(\d)$/,
    shards: TIE_SHARDS,
    classOf: (m) => m[1] as string,
    tieRanges: true,
  },
  { name: 'BOARDSNAP#<board> (board snapshot)', index: 'table', re: /^BOARDSNAP#/, workerReads: true },
  { name: 'CONTENT (curriculum)', index: 'table', re: /^CONTENT/, workerReads: true },
  {
    name: 'STATS#<day> (day counters)',
    index: 'table',
    re: /^(STATS#.+)$/,
    itemShards: DAY_COUNTER_SHARDS,
    itemClassOf: (m) => m[1] as string,
  },
  { name: 'gsi2 USERS (staff list of learners)', index: 'gsi2', re: /^USERS/ },
];

/** The pattern of an access, and its partition and item classes. */
export function classify(access: Access): { pattern: Pattern; partition: string; item?: string } {
  for (const pattern of PATTERNS) {
    if (pattern.index !== access.index) continue;
    const m = pattern.re.exec(access.pk);
    if (!m) continue;
    const partition = pattern.classOf ? pattern.classOf(m) : access.pk;
    const item =
      access.sk === undefined ? undefined : pattern.itemClassOf ? pattern.itemClassOf(m, access.sk) : `${access.pk} ${access.sk}`;
    return { pattern, partition, ...(item === undefined ? {} : { item }) };
  }
  const name = `${access.index === 'table' ? '' : `${access.index} `}${access.pk.replace(/\d{4}-\d{2}-\d{2}/g, '<day>').replace(/\d+/g, '<n>')}`;
  const pattern: Pattern = { name, index: access.index as Pattern['index'], re: /./ };
  return { pattern, partition: access.pk, ...(access.sk === undefined ? {} : { item: `${access.pk} ${access.sk}` }) };
}

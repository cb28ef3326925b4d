/**
 * The route profile's split (scripts/lib/bench/profile.ts, `npm run bench:profile`): a sample inside a call's
 * DynamoDB interval is the floor, one outside goes to the first part its stack matches, one outside every call is
 * not counted.
 */
import type { Profiler } from 'node:inspector';
import { describe, expect, it } from 'vitest';
import { GC, IDLE, OTHER, ROUTE_PARTS, splitProfile } from '../scripts/lib/bench/profile';

const frame = (id: number, functionName: string, url: string, children: number[] = []): Profiler.ProfileNode => ({
  id,
  callFrame: { functionName, url, scriptId: String(id), lineNumber: 0, columnNumber: 0 },
  children,
});

// root ─ idle, gc, authenticate (core) ─ jwtVerify (jose), parseItem (core), onSocketNT (client), emit (events), writeResult (local)
const nodes = [
  frame(1, '(root)', '', [2, 3, 4, 6, 7, 8, 9]),
  frame(2, '(idle)', ''),
  frame(3, '(garbage collector)', ''),
  frame(4, 'authenticate', 'file:///repo/packages/core/src/auth/sessions.ts', [5]),
  frame(5, 'jwtVerify', 'file:///repo/node_modules/jose/dist/webapi/jwt/verify.js'),
  frame(6, 'parseItem', 'file:///repo/packages/core/src/db/items.ts'),
  frame(7, 'onSocketNT', 'node:_http_client'),
  frame(8, 'emit', 'node:events'),
  frame(9, 'writeResult', 'file:///repo/packages/local/src/apigw.ts'),
];
const part = (fragment: string) => ROUTE_PARTS.find((p) => p.name.includes(fragment))?.name as string;

/** A profile starting at 1,000 µs whose sample `i` is `ids[i]` at 1,000 + 10·i µs (each stands for 10 µs). */
const profileOf = (ids: number[]): Profiler.Profile => ({
  nodes,
  startTime: 1_000,
  endTime: 1_000 + 10 * ids.length,
  samples: ids,
  timeDeltas: ids.map((_, i) => (i === 0 ? 0 : 10)),
});

describe('splitProfile', () => {
  it('counts a call’s samples inside its DynamoDB intervals as the floor and the rest by part', () => {
    //            t: 1000 1010 1020 1030 1040 1050 1060 1070 1080 1090
    const profile = profileOf([6, 5, 6, 7, 8, 2, 3, 9, 6, 6]);
    // One call from 1005 to 1085; DynamoDB in flight 1015–1025 and 1065–1068 (the samples at 1020, none at 1065).
    const split = splitProfile(profile, [
      {
        start: 1_005,
        end: 1_085,
        floors: [
          [1_015, 1_025],
          [1_065, 1_068],
        ],
      },
    ]);
    expect(split.calls).toBe(1);
    expect(split.insideUs).toBe(10);
    expect(Object.fromEntries(split.outsideUs)).toEqual({
      [part('token')]: 10, // jose under authenticate: the token part is tried before the pipeline
      [part('client')]: 10,
      [OTHER]: 10,
      [IDLE]: 10,
      [GC]: 10,
      [part('local runtime')]: 10,
      [part('pipeline')]: 10, // the sample at 1080; the ones at 1000 and 1090 are outside the call
    });
  });

  it('takes several calls in order and ignores the time between them', () => {
    const profile = profileOf([6, 6, 6, 6, 6, 6, 6]);
    const split = splitProfile(profile, [
      { start: 995, end: 1_012, floors: [] },
      { start: 1_035, end: 1_055, floors: [[1_049, 1_051]] },
    ]);
    expect(split.calls).toBe(2);
    expect(split.insideUs).toBe(10);
    expect(split.outsideUs.get(part('pipeline'))).toBe(30); // 1000, 1010, 1040
  });
});

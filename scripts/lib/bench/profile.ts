/**
 * Where a route's time outside its DynamoDB floor goes (issue 30 §5; `npm run bench:profile`): a V8 CPU profile of
 * the journey (node:inspector's Profiler), each sample that falls inside one of the route's calls but outside every
 * interval of that call's DynamoDB requests counted to the first part whose pattern matches its stack. What falls
 * inside an interval is the floor (the DynamoDB client's own work included), as in the same-run ratio (measure.ts).
 */
import type { Profiler } from 'node:inspector';

/** A part of a route's time, recognised by any frame of a sample's stack (function name `@` script URL). */
export interface Part {
  name: string;
  pattern: RegExp;
}

/** The service's parts, in the order they are tried (the first match wins; the token check before the pipeline). */
export const ROUTE_PARTS: readonly Part[] = [
  {
    name: "the access token's check (jose, WebCrypto)",
    pattern: /\/jose\/|internal\/crypto\/(webcrypto|mac|util|webidl|keys)|verifyAccessToken@/,
  },
  { name: 'the EMF line of a count (Powertools Metrics)', pattern: /countEvent@|@aws-lambda-powertools\/metrics\// },
  {
    name: 'the pipeline and the domain (middy, checks, items parsed, the route, the answer serialized)',
    pattern: /\/packages\/(functions|core)\/|\/@middy\/|\/zod\/|\/@aws-lambda-powertools\/|\/@smithy\/|\/@aws-sdk\//,
  },
  { name: "the bench's HTTP client (node:http)", pattern: /\/scripts\/lib\/bench\/client\.ts|node:_http_client|node:_http_agent/ },
  {
    name: "the local runtime and Node's HTTP server (event, answer, socket writes)",
    pattern: /\/packages\/local\/src\/|node:_http_(server|incoming|outgoing|common)/,
  },
];
export const IDLE = 'idle (waiting on something other than DynamoDB)';
export const GC = 'garbage collection';
export const OTHER = "Node's own socket, timer and promise machinery";

/** One call of the route on the profile's clock (µs): its span and its DynamoDB requests' intervals. */
export interface CallWindow {
  start: number;
  end: number;
  floors: [number, number][];
}

/** The time of a set of calls: outside the floor by part, and inside it, µs (sampled). */
export interface Split {
  calls: number;
  /** Sampled time inside the calls' DynamoDB intervals. */
  insideUs: number;
  /** Sampled time outside them, by part name (ROUTE_PARTS, IDLE, GC, OTHER). */
  outsideUs: Map<string, number>;
}

/**
 * Splits `profile`'s samples over `calls` (sorted by start, not overlapping; the profile's clock, µs). A sample
 * stands for the time until the next one. Samples outside every call are ignored.
 */
export function splitProfile(profile: Profiler.Profile, calls: readonly CallWindow[], parts: readonly Part[] = ROUTE_PARTS): Split {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const partOfNode = new Map<number, string>();
  const partOf = (id: number): string => {
    const known = partOfNode.get(id);
    if (known) return known;
    const leaf = nodes.get(id)?.callFrame.functionName;
    let part: string;
    if (leaf === '(idle)') part = IDLE;
    else if (leaf === '(garbage collector)') part = GC;
    else {
      const frames: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = nodes.get(at)?.callFrame;
        if (frame) frames.push(`${frame.functionName}@${frame.url}`);
      }
      const stack = frames.join('\n');
      part = parts.find((p) => p.pattern.test(stack))?.name ?? OTHER;
    }
    partOfNode.set(id, part);
    return part;
  };
  const split: Split = { calls: calls.length, insideUs: 0, outsideUs: new Map() };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let time = profile.startTime;
  let c = 0;
  for (let i = 0; i < samples.length; i++) {
    time += deltas[i] ?? 0;
    const weight = deltas[i + 1] ?? 0;
    while (c < calls.length && (calls[c] as CallWindow).end < time) c++;
    const call = calls[c];
    if (!call || call.start > time) continue;
    if (call.floors.some(([a, b]) => a <= time && time <= b)) {
      split.insideUs += weight;
      continue;
    }
    const part = partOf(samples[i] as number);
    split.outsideUs.set(part, (split.outsideUs.get(part) ?? 0) + weight);
  }
  return split;
}

/**
 * `npm run bench:profile -- [route] [learners]`: where one route's time outside its own DynamoDB time goes, the
 * question behind the same-run ratio of docs/performance.md (issue 30 §5). Runs the bench's journey
 * (scripts/lib/bench/journey.ts) for `learners` learners (default 150) under a V8 CPU profile (node:inspector,
 * sampling every 50 µs) and prints, for the route (default `GET /api/home`; any label of the journey, e.g.
 * `POST /api/questions/{id}/answer`), its p50 and floor p50 as the bench measures them, then the sampled time of its
 * calls inside and outside the floor, outside by part (scripts/lib/bench/profile.ts) in ms per call and share.
 *
 * The profiler slows every call down (about a quarter here), so its milliseconds are larger than the bench's: read the
 * shares. Prints a warning when the sampled time inside the floor strays from the measured floor by more than a fifth
 * (the clocks or the calls did not line up).
 */
import { Session } from 'node:inspector/promises';
import { logger } from '@mathisland/core';
import { benchJourney, type ObservedCall } from './lib/bench/journey';
import { type CallWindow, ROUTE_PARTS, splitProfile } from './lib/bench/profile';

const route = process.argv[2] ?? 'GET /api/home';
const learners = Number(process.argv[3] ?? 150);
if (!Number.isInteger(learners) || learners < 1) throw new Error(`learners: a whole number above 0, not ${process.argv[3]}`);
logger.setLogLevel('WARN');

// The profile's clock is the monotonic one of process.hrtime, in µs; the journey's is performance.now(), in ms.
const hrtimeUs = () => Number(process.hrtime.bigint() / 1000n);
const offsetUs = hrtimeUs() - performance.now() * 1000;
const onProfileClock = (ms: number) => ms * 1000 + offsetUs;

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
await session.post('Profiler.start');
const calls: CallWindow[] = [];
let floorMsSum = 0;
const observe = (call: ObservedCall) => {
  if (call.route !== route) return;
  floorMsSum += call.floorMs;
  calls.push({
    start: onProfileClock(call.startMs),
    end: onProfileClock(call.endMs),
    floors: call.intervals.map(([a, b]) => [onProfileClock(a), onProfileClock(b)]),
  });
};
const summaries = await benchJourney(learners, observe);
const { profile } = await session.post('Profiler.stop');
session.disconnect();

const summary = summaries.find((s) => s.route === route);
if (!summary) {
  console.error(`No route ${JSON.stringify(route)} in the journey; its routes: ${summaries.map((s) => s.route).join(', ')}`);
  process.exit(2);
}
const split = splitProfile(profile, calls);
const outside = [...split.outsideUs.values()].reduce((a, b) => a + b, 0);
const perCall = (us: number) => (us / 1000 / split.calls).toFixed(3);
const floorMean = floorMsSum / calls.length;
console.log(
  `${route}: ${split.calls} calls profiled; p50 ${summary.p50.toFixed(2)} ms, floor p50 ${summary.floorP50.toFixed(2)} ms, ratio ${summary.ratio.toFixed(2)}×`,
);
console.log(`sampled per call: ${perCall(split.insideUs)} ms inside the floor, ${perCall(outside)} ms outside it\n`);
console.log('| outside the floor | ms per call | share |\n|---|---:|---:|');
const order = ROUTE_PARTS.map((p) => p.name);
for (const [part, us] of [...split.outsideUs].sort((a, b) => b[1] - a[1] || order.indexOf(a[0]) - order.indexOf(b[0]))) {
  console.log(`| ${part} | ${perCall(us)} | ${((us / outside) * 100).toFixed(0)} % |`);
}
if (Math.abs(split.insideUs / 1000 / split.calls - floorMean) > floorMean / 5) {
  console.warn(`\nwarning: the sampled floor (${perCall(split.insideUs)} ms) strays from the measured one (${floorMean.toFixed(3)} ms)`);
}
process.exit(0);

/** The Markdown of docs/performance.md, from one bench run's figures (scripts/bench.ts) and its charts (charts.ts). */
import { cpus, totalmem } from 'node:os';
import { functionMemoryMb } from '../../../infra/functions';
import { type EndpointGroup, endpointGroups } from '../../../infra/routes';
import type { Chart } from './charts';
import { costPerThousandLearnerDays, LEARNER_DAY, memoryFor, PRICES } from './cost';
import { type BenchResults, loadRange } from './figures';
import { median, type Summary } from './measure';
import { renderRatioSection } from './ratioReport';
import { renderTargets } from './targets';

export type { BenchResults } from './figures';

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

export function renderReport(r: BenchResults, charts: Chart[]): string {
  const byRoute = new Map(r.journey.map((j) => [j.route, j]));
  const route = (key: string) => byRoute.get(key) as Summary;
  const bigBoard = r.boards.filter((b) => b.size === Math.max(...r.options.boardSizes));
  const coldBoard = bigBoard.find((b) => b.period === 'weekly') ?? bigBoard[0]!;
  const peakByGroup = new Map<string, number>();
  for (const run of r.load) peakByGroup.set(run.group, Math.max(peakByGroup.get(run.group) ?? 0, run.peakRssMiB));
  const overallPeak = Math.max(...r.load.map((l) => l.peakRssMiB));
  const boardOf = (cold: boolean) => ({
    rcu: (cold ? coldBoard.cold : coldBoard.warm).rcu,
    wcu: (cold ? coldBoard.cold : coldBoard.warm).wcu,
    ms: (cold ? coldBoard.cold : coldBoard.warm).p50,
  });
  const groupOfRoute: Record<string, EndpointGroup> = {
    'POST /api/auth/otp/request': 'auth',
    'POST /api/auth/login': 'auth',
    'GET /api/nodes/{id}/questions': 'curriculum',
    'POST /api/subscription/purchase': 'billing',
  };
  const cost = costPerThousandLearnerDays(
    LEARNER_DAY.map(({ route: name, perDay }) => {
      const measured = name.includes('(cold)')
        ? boardOf(true)
        : name.includes('(warm)')
          ? boardOf(false)
          : { ...route(name), ms: route(name).p50 };
      const group = name.startsWith('GET /api/leaderboard') ? 'leaderboard' : (groupOfRoute[name] ?? 'learning');
      return { route: name, group, perDay, rcu: measured.rcu, wcu: measured.wcu, ms: measured.ms };
    }),
  );
  const load = loadRange(r.machine);

  return `# Performance

Made by \`npm run bench\` (scripts/bench.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB,
Node ${process.version}, DynamoDB Local in memory, every call on loopback. Re-run it after any change to a route, a
query or a dependency, and replace this file with what it writes (the charts are written next to it, in
\`docs/performance/\`). Absolute latencies are DynamoDB Local on this machine, not AWS: judge them by the same-run
ratios, not against another environment. **The machine was shared with other work while this ran**: the 1-minute
load average, sampled every 5 s, was ${load.min.toFixed(1)} to ${load.max.toFixed(1)} (median ${load.median.toFixed(1)}) on its ${r.machine.cores} cores, so every
figure carries that load (a load above the core count means processes waited for a core).

The exact DynamoDB request counts and the bundle budgets are also held by CI: \`tests/requests.test.ts\` (counts per
call, two board sizes) and \`tests/budgets.test.ts\` (each bundle against its budget) fail when one rises.

${charts.map((c) => `![${c.title}](${c.file})`).join('\n\n')}

## Targets in this run

${renderTargets(r)}

${renderRatioSection(r)}

## The journey's routes through the local runtime

${r.options.learners} learners each: request a code, sign in (first time), open the map, read the first island's
questions, answer them (one wrong), complete the island, read progress and the weekly leaderboard, then buy the
90-day plan (purchase, pay link, Pay on the fake gateway, callback) and read the subscription status. Sequential
calls; "requests" is what the worker's client sent for one call (median / largest seen); units are the capacity
units DynamoDB reported for them (median; transactions count double, as billed).

| route | calls | requests (median / max) | read units | write units | p50 ms | p99 ms | floor p50 ms |
|---|---:|---:|---:|---:|---:|---:|---:|
${r.journey.map((j) => `| \`${j.route}\` | ${j.calls} | ${j.dynamo} / ${j.dynamoMax} | ${f1(j.rcu)} | ${f1(j.wcu)} | ${f1(j.p50)} | ${f1(j.p99)} | ${f1(j.floorP50)} |`).join('\n')}

What the hot routes send (issue 15 moved them):
- \`POST /api/auth/login\`: the throttle counter; the guess reservation on the code item, which returns the code with the
  phone's owner it noted when it was sent; one transaction: the session, the user's sessionId, the day's sign-in
  counter and the code's consumption (two logins with one code: one wins). 3 requests for a known learner; a new
  one adds the user id counter, and the transaction creates the user with its phone and publicId items (4).
- \`POST /api/auth/otp/request\`: the throttle counter, one BatchGet of the code item and the phone item (the owner the
  code notes), the new code.
- \`POST /api/questions/{id}/answer\`: the session check (it loads the user), then one transaction: the answer, hearts,
  the day's activity, the lock rule as a ConditionCheck of the previous node's progress, and the throttle hit (a
  full window cancels the whole transaction: 429, nothing written).
- \`POST /api/nodes/{id}/quiz/complete\` and \`POST /api/lessons/{id}/complete\`: the session check, one BatchGet of the
  completion's state (node progress, lock, answers, lesson completions), one transaction of everything the
  completion changes (the XP's move on both boards' sharded entries and histogram buckets included) with the throttle
  hit; a notification's id is the time (issue 30), no counter.
- authenticated routes: the session check loads the user. A route throttled per learner that does not write counts
  its hit in the same request: one UpdateItem on the user item checks the session, counts the hit and returns the
  user (core throttle/onItem.ts; a second conditional write only when the slot holds a count from exactly 11, 22, ...
  windows ago). Other routes: one GetItem, and the throttle counter where the route has a scope.

## Leaderboard reads: ${r.options.boardSizes.map(int).join(' and ')} learners

\`GET /api/leaderboard\` by a learner with 65 XP (far down a large board, among ties), the board seeded as XP grants
leave it (about 2,000 distinct XP values), write-sharded (issue 30). Before each cold read the clock moves past the
60 s cache and the board-snapshot job takes the minute's snapshots, untimed, as its schedule does in AWS outside any
request. A cold read is then the session check with the throttle hit (one UpdateItem), the board's snapshot (one
GetItem: the top 100 with their names, the histogram merged from the shards, the markers of crowded values) and the
caller's ties (one COUNT Query per tie shard, from the last marker ahead). A warm read is the next one, within the
60 s: the session check with the throttle hit only. ${r.options.boardReads} reads each.

| learners | period | caller's rank | cold: requests (median / max) | cold p50 ms | cold floor p50 ms | cold p99 ms | warm: requests | warm p50 ms |
|---:|---|---:|---:|---:|---:|---:|---:|---:|
${r.boards.map((b) => `| ${int(b.size)} | ${b.period} | ${int(b.rank)} | ${b.cold.dynamo} / ${b.cold.dynamoMax} | ${f1(b.cold.p50)} | ${f1(b.cold.floorP50)} | ${f1(b.cold.p99)} | ${b.warm.dynamo} | ${f1(b.warm.p50)} |`).join('\n')}

The request count does not grow with the number of learners (the snapshot is one item; the ties counted are at
most those after one marker); with 100 learners the caller is in the top 100 and the rank comes from the top list. Seeding took
${r.boards
  .filter((b) => b.period === 'weekly')
  .map((b) => `${b.seedSeconds.toFixed(0)} s`)
  .join(' and ')}.

## Load: autocannon on the hot routes

autocannon against the local runtime on 127.0.0.1 only, ${r.options.load.connections} connections, each run bounded to
${int(r.options.load.amount)} requests or ${r.options.load.seconds} s, whichever comes first, signed by ${r.options.load.learners} learners in turn. Each route runs in a
fresh worker process (scripts/lib/bench/loadWorker.ts) started with the bench-only \`BENCH_THROTTLE_LIMIT\`, which
replaces every throttle scope's limit so that 50 connections from one address are served (settings refuse it when
STAGE is production, and the stacks never pass it on). Errors are socket errors, timeouts and non-2xx answers. The
peak RSS is the worker process's over its whole life (\`process.resourceUsage().maxRSS\`): the local runtime holds
every endpoint group and the fakes, so it bounds each group's Lambda from above. DynamoDB Local runs in its own
process and is not counted.

| route | Lambda | requests | seconds | requests/s | p50 ms | p99 ms | errors | worker peak RSS MiB |
|---|---|---:|---:|---:|---:|---:|---:|---:|
${r.load.map((l) => `| \`${l.route}\` | ${l.group} | ${int(l.requests)} | ${f1(l.seconds)} | ${f1(l.rps)} | ${f1(l.p50)} | ${f1(l.p99)} | ${l.errors} | ${f1(l.peakRssMiB)} |`).join('\n')}

### Memory of each Lambda

Sized from the peak (\`memoryFor\` in scripts/lib/bench/cost.ts, the rule of \`functionMemoryMb\` in infra/functions.ts):
the smallest of 512, 768, 1024, 1536, 1769, 2048 MB that leaves the peak at most half of it, never under 512 MB
(Lambda gives CPU in proportion to memory; below 512 MB the cold start's module evaluation slows several times
over). Groups without a load run take the largest peak measured (${f1(overallPeak)} MiB), an upper bound: every group
runs on the same runtime and libraries.

| Lambda | peak RSS MiB | sized from the peak | infra/functions.ts |
|---|---:|---:|---:|
${endpointGroups
  .map((g) => {
    const peak = peakByGroup.get(g) ?? overallPeak;
    return `| ${g} | ${f1(peak)}${peakByGroup.has(g) ? '' : ' (upper bound)'} | ${memoryFor(peak)} | ${functionMemoryMb[g]} |`;
  })
  .join('\n')}

## Cost per 1,000 learner-days

From this run's units and durations. A learner-day (an assumption, scripts/lib/bench/cost.ts \`LEARNER_DAY\`): a
sign-in every 10 days, the map 3 times, one island's worth of learning (20 answers, 2 completions, the questions
read twice), progress once, the leaderboard twice (once cold, once warm, at ${int(coldBoard.size)} learners), a purchase every 100
days. Billed duration = the route's p50 here (DynamoDB Local on loopback; in AWS it is about the same or less), rounded
up to 1 ms, times the Lambda's memory. Prices (USD, list, us-east-1; eu-central-1 is about 20 % higher): DynamoDB
on-demand $${PRICES.perMillionReadUnits} per million read units and $${PRICES.perMillionWriteUnits} per million write units; Lambda arm64 $${PRICES.perGbSecond} per GB-second and
$${PRICES.perMillionInvocations} per million invocations. API Gateway and CloudWatch are not included.

| route | calls / 1,000 learner-days | read units each | write units each | ms each | MB | read units | write units | GB-seconds |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${cost.lines.map((l) => `| \`${l.route}\` | ${int(l.calls)} | ${f1(l.rcu)} | ${f1(l.wcu)} | ${Math.ceil(l.ms)} | ${l.memoryMb} | ${f1(l.readUnits)} | ${f1(l.writeUnits)} | ${f1(l.gbSeconds)} |`).join('\n')}
| **total** | ${int(cost.totals.calls)} | | | | | ${f1(cost.totals.readUnits)} | ${f1(cost.totals.writeUnits)} | ${f1(cost.totals.gbSeconds)} |

Each row: units = calls × units each; GB-seconds = calls × ⌈ms⌉ / 1000 × MB / 1024. Dollars per 1,000 learner-days:
- reads: ${f1(cost.totals.readUnits)} / 1,000,000 × $${PRICES.perMillionReadUnits} = $${cost.dollars.reads.toFixed(5)}
- writes: ${f1(cost.totals.writeUnits)} / 1,000,000 × $${PRICES.perMillionWriteUnits} = $${cost.dollars.writes.toFixed(5)}
- compute: ${f1(cost.totals.gbSeconds)} GB-s × $${PRICES.perGbSecond} = $${cost.dollars.compute.toFixed(5)}
- invocations: ${int(cost.totals.calls)} / 1,000,000 × $${PRICES.perMillionInvocations} = $${cost.dollars.invocations.toFixed(5)}
- **total: $${cost.total.toFixed(4)} per 1,000 learner-days** (storage, API Gateway, logs and the tutor's model not included).

## The tutor's pipeline overhead

${r.tutor.asks} questions by one learner to \`POST /api/ai/ask\` through the local streaming shim, the fake model set to a
first-token delay of ${r.tutorFirstTokenMs} ms. Overhead = time to the first byte of the streamed answer minus that delay.

| measure | value |
|---|---:|
| pipeline overhead to first byte, p50 | ${f1(r.tutor.overheadP50)} ms |
| pipeline overhead to first byte, p99 | ${f1(r.tutor.overheadP99)} ms |
| first byte (overhead + model delay), p50 | ${f1(r.tutor.firstByteP50)} ms |
| whole answer, p50 | ${f1(r.tutor.totalP50)} ms |
| DynamoDB requests per question (median / max) | ${r.tutor.dynamo} / ${r.tutor.dynamoMax} |

## Lambda bundles and cold-start import time

Each endpoint group built as SST deploys it (infra/functions.ts: SST's own esbuild, ESM, minified, the AWS SDK v3
from the Lambda runtime and Node's built-in modules loaded with \`require\`, the openai SDK's uncalled parts left
out), measured from esbuild's output; import time is the median of ${r.options.importRuns} fresh \`node\` processes importing
the bundle (module evaluation only), started with the flags Lambda's \`nodejs22.x\` applies
(\`--no-experimental-detect-module --no-experimental-require-module\`), whole and with the runtime's SDK packages it
loads at import required first, the runs taken round-robin over the groups so that a slow spell of this shared
machine falls on all of them alike (scripts/lib/bench/imports.ts). The yardstick of issue 30 is requiring
\`@aws-sdk/client-dynamodb\` alone in a fresh process with the same flags: ${f1(r.bundles.dynamoClientMs)} ms (median of ${r.bundles.dynamoClientRuns}, taken in the
same rounds); each group's whole import over it is its ratio (target 1.5, the tutor 2). The ten largest inputs of
each bundle come from esbuild's metafile (bytes in the output, KiB, by package or source folder).

| Lambda | bundle KiB | budget KiB | import ms, own (median) | import ms, whole (median) | ÷ DynamoDB client | target | largest inputs (KiB) |
|---|---:|---:|---:|---:|---:|---:|---|
${r.bundles.groups.map((b) => `| ${b.group} | ${kib(b.bytes)} | ${b.budgetKiB} | ${f1(b.ownImportMs)} | ${f1(b.importMs)} | ${f2(b.ratio)}× | ${b.ratioTarget}× | ${b.top.map((i) => `${i.name} ${kib(i.bytes)}`).join(', ')} |`).join('\n')}

"Own" is the bundle's evaluation with the runtime's SDK packages it loads at import already required
(\`@aws-sdk/client-dynamodb\`, \`@aws-sdk/lib-dynamodb\`): the SDK is the Lambda runtime's (external to every bundle),
and loading it costs the same whatever the bundle holds (${f1(median(r.bundles.groups.filter((g) => g.group !== 'fallback').map((g) => g.importMs - g.ownImportMs)))} ms here, the median of whole less own; the
fallback group, which loads no SDK, shows the floor of an import). The bundles load it with \`require\`
(\`requireAtRuntime\`, infra/bundlePlugins.ts): the runtime's SDK is CommonJS, and an ES \`import\` of it ran Node's
ESM-to-CommonJS bridge too, about 40 ms more. Node's built-in modules are required too: an ES \`import\` of
\`http\` (the DynamoDB client's HTTP handler, bundled) builds its ES facade, which reads every export, Node 22's lazy
\`WebSocket\`/\`fetch\` getters included, and so compiled Node's fetch implementation (undici) at every cold start:
about 10 ms of each group's own import, found in a CPU profile. What the code imports by name is bound once per
module, only the names imported (not esbuild's copy of all 526 exports of the DynamoDB client into a namespace at
every importing module: about 1.5 ms of each group's own import). The Secrets Manager client is not in either column: Powertools'
SecretsProvider loads it when the stage secret is first read, a worker's first request in AWS (never locally),
which it costs ${f1(r.secretsClientMs)} ms (median, required after the DynamoDB packages it shares \`@smithy/*\` with). What is
left is parsing the bundle (about 15 ms for 250 KiB here) and running its module bodies (the route manifest, the
logger, the middleware's few shared zod schemas; the tutor also compiles its gate's word lists): measured with
\`node --cpu-prof\` and per-module timestamps in an unminified build. No route's or entity's zod schema is built at
import (issue 30 §5): a zod schema costs its construction, about 30 µs an instance on a cold process, and the groups
used to build 290 to 1,180 at import (every entity schema their routes might parse, every route's input, and response
shapes only the API description reads), though a request parses two or three items. Entity and input schemas are
built at their first use (\`lazySchema\`, core lazySchema.ts) and response shapes at their first read
(\`responseShape\`, never in a Lambda: answers are not validated at run time), so a cold start builds only what its
first request parses; this took 10 to 25 ms off most groups' own import. The openai SDK (tutor, rag) is loaded at the
first model call (core providers/model.ts): its load reads the global \`Response\`, which loads Node's fetch, about 15 ms
that the calls never reaching the model (a refused question, a used-up quota, bad input) need not pay. Those two
groups are built with code splitting (infra/functions.ts \`nodejsProps\`), so the SDK sits in a file of its own in the
function's package and a cold start does not parse its 113 KiB either: their "bundle KiB" is the whole package.

The heaviest dependencies, and why they stay:
- **openai** (tutor, rag): the model adapter's SDK (the team's rule: a well-kept library over our own HTTP and SSE
  code). Its client constructs all of its ~25 API resources in its constructor, so no bundler can drop one: whole,
  it is 411 KiB. The bundles keep the SDK's client, request, retry, error and streaming code and the two resources
  the adapter calls (chat, embeddings); an esbuild plugin (\`openAiUncalledParts\`, infra/bundlePlugins.ts) loads the
  other resources as empty stand-ins and the chat helpers the adapter never calls (\`.stream()\`, \`.runTools()\`,
  \`.parse()\`) as classes that throw. \`tests/budgets.test.ts\` runs the bundled adapter against the local model API.
- **zod** (every group): request and response schemas, and every stored item is parsed on read; each schema is
  built at its first use (above). Imported as a
  namespace (\`import * as z\`, enforced by Biome): its \`z\` object holds all of zod and cannot be tree-shaken; its
  JSON Schema generator, which every schema class refers to but no Lambda runs (the API document is generated at
  build time), is loaded as throwing stand-ins (\`zodJsonSchemaLeftOut\`, infra/bundlePlugins.ts): about 19 KiB less in
  every group.
- **infra/routes.ts** (every group): the route manifest (paths, auth, throttle scopes, summaries) that each group
  checks its definitions against at start.
- **@aws-lambda-powertools/logger**, **jose** (access tokens), **@middy/***: the platform of every handler.
- The AWS SDK v3 is not bundled: the Lambda runtime provides it, loaded with \`require\`. Bundled (minified,
  tree-shaken) it shortens the whole import by a quarter at most and on some groups not at all (medians of 9, five
  groups: 93 to 124 ms against 106 to 133 ms required from the runtime) but adds about 390 KiB to every group
  (\`@smithy/core\` 139, \`@aws-sdk/nested-clients\` 75, \`@aws-sdk/core\` 50, the DynamoDB client 34, the Secrets Manager
  client 27 KiB, ...): 617 to 661 KiB per group, twice the 300 KiB budget.
`;
}

/**
 * The targets table of docs/performance.md: issue 30 §5 (the same-run ratio of home and answer, each Lambda's cold
 * import over the DynamoDB client's) and issue 15's that still hold (bundle budgets, DynamoDB requests per call),
 * each checked against the run.
 */
import { BARE_ROUTES } from './bare';
import { type BenchResults, bareBaselines, HOT_RATIO_TARGET, hotRoutes } from './figures';
import type { Summary } from './measure';

/** Issue 15's DynamoDB request targets (leaderboard cold: 6 since the boards are sharded, issue 30 §2). */
const REQUESTS = { answer: 2, completion: 4, login: 4, boardCold: 6, boardWarm: 1 };

const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const check = (ok: boolean) => (ok ? 'met' : '**not met**');

export function renderTargets(r: BenchResults): string {
  const route = (key: string) => r.journey.find((j) => j.route === key) as Summary;
  const held = hotRoutes(r).filter((h) => h.target !== undefined);
  const tokenBaselines = bareBaselines(r).filter((b) => b.variant === 'token');
  const groups = r.bundles.groups;
  const over = groups.filter((g) => g.ratio > g.ratioTarget);
  const worst = [...groups].sort((a, b) => b.ratio / b.ratioTarget - a.ratio / a.ratioTarget)[0];
  const budgets = groups.filter((g) => g.budgetKiB === 300).sort((a, b) => b.bytes - a.bytes)[0];
  const size = (name: string) => kib(groups.find((g) => g.group === name)?.bytes ?? 0);
  const rows: Array<[string, string, boolean]> = [
    [
      `home and answer: route p50 ÷ their own DynamoDB time p50 ≤ ${HOT_RATIO_TARGET}× (issue 30)`,
      held
        .map((h) => {
          const token = tokenBaselines.find((b) => BARE_ROUTES.get(b.route)?.name === h.name);
          return `${h.name} ${f2(h.summary.ratio)}×${token ? ` (a bare server with only the token’s check and the same requests: ${f2(token.summary.ratio)}×)` : ''}`;
        })
        .join('; '),
      held.every((h) => h.summary.ratio <= (h.target as number)),
    ],
    [
      'each Lambda’s cold import as Lambda runs it ≤ 1.5× requiring the DynamoDB client alone, the tutor 2× (issue 30)',
      `the client alone ${r.bundles.dynamoClientMs.toFixed(1)} ms; highest against its target: ${worst?.group} ${f2(worst?.ratio ?? Number.NaN)}×${
        over.length ? `; over: ${over.map((g) => `${g.group} ${f2(g.ratio)}×`).join(', ')}` : ''
      }`,
      over.length === 0,
    ],
    [
      'every endpoint group ≤ 300 KiB, tutor and rag ≤ 500 KiB (issue 15)',
      `largest: ${budgets?.group} ${kib(budgets?.bytes ?? 0)} KiB; tutor ${size('tutor')}, rag ${size('rag')} KiB`,
      groups.every((g) => g.bytes <= g.budgetKiB * 1024),
    ],
    [
      `answer ≤ ${REQUESTS.answer} DynamoDB requests, quiz completion ≤ ${REQUESTS.completion}, login ≤ ${REQUESTS.login} (issue 15)`,
      `${route('POST /api/questions/{id}/answer').dynamoMax}, ${route('POST /api/nodes/{id}/quiz/complete').dynamoMax}, ${route('POST /api/auth/login').dynamoMax} (new learners)`,
      route('POST /api/questions/{id}/answer').dynamoMax <= REQUESTS.answer &&
        route('POST /api/nodes/{id}/quiz/complete').dynamoMax <= REQUESTS.completion &&
        route('POST /api/auth/login').dynamoMax <= REQUESTS.login,
    ],
    [
      `leaderboard cold ≤ ${REQUESTS.boardCold}, warm ≤ ${REQUESTS.boardWarm}, the same at every size (issue 30 §2)`,
      r.boards.map((b) => `${b.size.toLocaleString('en-US')} ${b.period}: ${b.cold.dynamoMax} / ${b.warm.dynamoMax}`).join('; '),
      r.boards.every((b) => b.cold.dynamoMax <= REQUESTS.boardCold && b.warm.dynamoMax <= REQUESTS.boardWarm),
    ],
  ];
  return ['| target | this run | |', '|---|---|---|', ...rows.map(([target, run, ok]) => `| ${target} | ${run} | ${check(ok)} |`)].join(
    '\n',
  );
}

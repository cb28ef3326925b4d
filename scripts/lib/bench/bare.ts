/**
 * The bare baseline of the same-run ratio (issue 30 §5, docs/performance.md): the lowest ratio any service could
 * reach on a hot route on this machine, in the same run, measured beside the route itself.
 *
 * A bare server is a plain `node:http` server: no local runtime, no API Gateway event, no middy, no validation, no
 * domain code. Right after each recorded call of a route in {@link BARE_ROUTES}, the journey (journey.ts) sends the same
 * request (method, path, headers, body) through the same bench client to two bare variants, each measured with the
 * same DynamoDB instrument as the route:
 * - `requests`: sends the call's own DynamoDB requests again (the same commands and inputs, one after another, as
 *   home and answer send their two) and answers the route's own status and JSON body;
 * - `token`: first checks the request's access token with the service's own `verifyAccessToken` (jose, HS256), with a
 *   verified-token cache of its own, so a token's first check is jose's full WebCrypto check and later ones the
 *   cached check, as in the service (home is each learner's first call after signing in; its answers come later);
 *   then as `requests`.
 *
 * The replays are real writes: home's throttle window and an answer's counters count each replay again (nothing the
 * journey measures afterwards reads those counters back). A replay DynamoDB refuses is not the same work: the bench
 * stops with {@link BareReplayRefused}, or, on a route whose refusals by a condition are expected
 * ({@link BARE_ROUTES}), leaves that replay out and counts it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deps } from '@mathisland/core';
import { verifyAccessToken } from '@mathisland/core/auth';
import type { Db } from '@mathisland/core/db';

/**
 * The journey's routes replayed on the bare servers (the routes held to the same-run ratio target), each with its
 * name in the report and whether a replay DynamoDB refuses by a condition is left out (counted) or stops the bench.
 * A wrong answer's transaction is conditioned on the hearts the call itself spent, so its replay is refused: those
 * are left out, and the answer baselines are of the answers DynamoDB accepted again.
 */
export const BARE_ROUTES = new Map<string, { name: string; conditionRefusalsLeftOut: boolean }>([
  ['GET /api/home', { name: 'home', conditionRefusalsLeftOut: false }],
  ['POST /api/questions/{id}/answer', { name: 'answer', conditionRefusalsLeftOut: true }],
]);

/** The bare variants, in the order each call is replayed. */
export const BARE_VARIANTS = ['requests', 'token'] as const;
export type BareVariant = (typeof BARE_VARIANTS)[number];

/** A DynamoDB command as the instrument saw it sent (a `@aws-sdk/lib-dynamodb` command object). */
export interface SentCommand {
  constructor: new (input: never) => unknown;
  input: Record<string, unknown>;
}

/** What one bare request is to do: the recorded call's DynamoDB commands and its answer. */
export interface BareReplay {
  commands: SentCommand[];
  status: number;
  /** The route's JSON body, as text. */
  body: string;
}

/** DynamoDB refused a replayed request (say, a full throttle window): the baseline would not be the same work. */
export class BareReplayRefused extends Error {}

/** The two bare servers of one journey; `url(variant)` is each one's base URL. Close with `close()`. */
export interface BareServers {
  url(variant: BareVariant): string;
  /** Sets what the next request to a bare server does (calls are sequential; one replay is pending at a time). */
  expect(replay: BareReplay): void;
  close(): Promise<void>;
}

/**
 * Starts both bare servers on loopback. `db` is the journey's (instrumented) client, `deps` the local stack's, whose
 * secret key and clock the `token` variant checks tokens with.
 */
export async function startBareServers(db: Db, deps: Pick<Deps, 'secretKey' | 'clock'>): Promise<BareServers> {
  let pending: BareReplay | undefined;
  // A copy of the key bytes: verifyAccessToken keeps its verified tokens per key object, so this cache is the bare
  // server's own and the service's cache cannot answer for it.
  const tokenDeps = { secretKey: new Uint8Array(deps.secretKey), clock: deps.clock } as Deps;
  const serve = async (variant: BareVariant, req: IncomingMessage, res: ServerResponse) => {
    const replay = pending;
    pending = undefined;
    try {
      if (!replay) throw new Error('a bare server got a request nobody expected');
      if (variant === 'token') {
        await verifyAccessToken(tokenDeps, String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
      }
      for (const command of replay.commands) {
        const Command = command.constructor;
        await db.doc.send(new Command(structuredClone(command.input) as never) as never);
      }
      res.writeHead(replay.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(replay.body) });
      res.end(replay.body);
    } catch (error) {
      const body = JSON.stringify({ refused: String(error), byCondition: refusedByCondition(error) });
      res.writeHead(599, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }
  };
  const servers = new Map<BareVariant, Server>();
  for (const variant of BARE_VARIANTS) {
    // The request body is read whole before the replay, as the local runtime reads it before the handler.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => void serve(variant, req, res));
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.set(variant, server);
  }
  return {
    url: (variant) => `http://127.0.0.1:${((servers.get(variant) as Server).address() as AddressInfo).port}`,
    expect: (replay) => {
      pending = replay;
    },
    close: async () => {
      for (const server of servers.values()) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** Whether DynamoDB refused a request by a condition (a transaction: every reason given is a condition). */
function refusedByCondition(error: unknown): boolean {
  const { name, CancellationReasons } = error as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
  if (name === 'ConditionalCheckFailedException') return true;
  const reasons = (CancellationReasons ?? []).filter((r) => r.Code && r.Code !== 'None');
  return name === 'TransactionCanceledException' && reasons.length > 0 && reasons.every((r) => r.Code === 'ConditionalCheckFailed');
}

/**
 * Whether a bare server's answer is a replay to measure: true when it replayed; false when DynamoDB refused it by a
 * condition on a route whose such refusals are left out ({@link BARE_ROUTES}). Errors: {@link BareReplayRefused} for
 * any other failed replay (status 599).
 */
export function assertReplayed(route: string, variant: BareVariant, status: number, json: unknown): boolean {
  if (status !== 599) return true;
  if ((json as { byCondition?: boolean }).byCondition && BARE_ROUTES.get(route)?.conditionRefusalsLeftOut) return false;
  throw new BareReplayRefused(`The bare ${variant} replay of ${route} failed: ${JSON.stringify(json)}`);
}

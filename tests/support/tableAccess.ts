/**
 * Proof that the table permissions of `infra/permissions.ts` are complete: a vitest setup file (projects `api` and
 * `browser`) that records, for every DynamoDB request the service sends during a test file, which deployed
 * function sent it and the IAM action and resource it needs, and fails the file (in `afterAll`) when a function
 * sent one its declaration does not allow. The stack tests then prove that each deployed policy is exactly its
 * declaration, so together: what the black-box suite exercises is allowed in AWS, and nothing more is granted.
 *
 * How a request is attributed: the local runtime serves each endpoint group with the group's own handler
 * (`createHandler(getDeps)`, the same pipeline its Lambda runs). An HTTP request to the local server runs inside an
 * AsyncLocalStorage context holding the group its path routes to (the local runtime's own `matchRoute`; unmatched
 * `/api/` paths are the `fallback` group), so every DynamoDB request made while handling it carries that group.
 * Jobs run in tests through {@link asFunction}. Requests outside any context (a test setting up data through the
 * domain, the start-up migrations and textbook seed of the local stack) are not attributed and not checked.
 *
 * How a request becomes IAM actions (IAM has no TransactWriteItems action: each part is authorized as its own
 * action): Get → GetItem, Put → PutItem, ..., TransactWriteItems → PutItem / UpdateItem / DeleteItem /
 * ConditionCheckItem per part, TransactGetItems → GetItem per part; a Query or Scan with `IndexName` needs the
 * action on that index's ARN (`table/index/<name>`), everything else on the table's.
 *
 * The clients are patched through their prototypes (taken from a client `createDb` builds), so this file needs no
 * AWS SDK import of its own. `TABLE_ACCESS_OUT=<dir>` also writes what was seen, per test file, as JSON.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { basename, join } from 'node:path';
import { createDb } from '@mathisland/core/db';
import { afterAll, expect } from 'vitest';
import { type FunctionName, functionAccess, type TableAction } from '../../infra/permissions';
import { matchRoute } from '../../packages/local/src/server';

const attribution = new AsyncLocalStorage<FunctionName>();

/** What a function was seen doing: `action` on `resource` (`table` or `index/<name>`). */
export interface TableUse {
  fn: FunctionName;
  action: TableAction;
  resource: string;
}

const seen = new Map<string, TableUse>();

/** What function `fn` was seen doing so far in this test file. */
export const usesOf = (fn: FunctionName): TableUse[] => [...seen.values()].filter((u) => u.fn === fn);

/** Runs `work` as the deployed function `fn` (a job run by a test), so its DynamoDB requests are checked as fn's. */
export const asFunction = <T>(fn: FunctionName, work: () => Promise<T>): Promise<T> => attribution.run(fn, work);

/** The lib-dynamodb and client-dynamodb command class names → the DynamoDB operation. */
const operationOf = (command: object): string => {
  const name = command.constructor.name.replace(/Command$/, '');
  const documentNames: Record<string, string> = {
    Get: 'GetItem',
    Put: 'PutItem',
    Update: 'UpdateItem',
    Delete: 'DeleteItem',
    BatchGet: 'BatchGetItem',
    BatchWrite: 'BatchWriteItem',
    TransactGet: 'TransactGetItems',
    TransactWrite: 'TransactWriteItems',
  };
  return documentNames[name] ?? name;
};

const transactPart: Record<string, TableAction> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/** The IAM actions and resources one request needs. */
export function iamUses(command: { input?: Record<string, any> }): Array<{ action: TableAction; resource: string }> {
  const operation = operationOf(command);
  const input = command.input ?? {};
  if (operation === 'TransactWriteItems') {
    return (input.TransactItems as Array<Record<string, unknown>>).map((part) => {
      const kind = Object.keys(part)[0] as string;
      const action = transactPart[kind];
      if (!action) throw new Error(`unknown TransactWriteItems part ${kind}`);
      return { action, resource: 'table' };
    });
  }
  if (operation === 'TransactGetItems') return [{ action: 'GetItem', resource: 'table' }];
  return [{ action: operation as TableAction, resource: input.IndexName ? `index/${input.IndexName}` : 'table' }];
}

function record(command: { input?: Record<string, any> }): void {
  const fn = attribution.getStore();
  if (!fn) return;
  for (const use of iamUses(command)) seen.set(`${fn} ${use.action} ${use.resource}`, { fn, ...use });
}

/** The request's function: the group its path routes to in the local runtime, none for the fakes and the panel. */
function functionOfRequest(method: string, url: string): FunctionName | undefined {
  const path = new URL(url, 'http://localhost').pathname;
  if (path === '/' || path.startsWith('/_local/') || path === '/admin' || path.startsWith('/admin/')) return undefined;
  return matchRoute(method, path)?.group ?? 'fallback';
}

function install(): void {
  const marker = Symbol.for('mathisland.tableAccess');
  const globals = globalThis as Record<symbol, unknown>;
  if (globals[marker]) return;
  globals[marker] = true;

  const probe = createDb({ tableName: 'probe', endpoint: 'http://127.0.0.1:9' });
  for (const client of [probe.raw, probe.doc]) {
    const proto = Object.getPrototypeOf(client) as { send: (command: object, ...rest: unknown[]) => unknown };
    const send = proto.send;
    proto.send = function patchedSend(this: unknown, command: object, ...rest: unknown[]) {
      record(command as { input?: Record<string, any> });
      return send.call(this, command, ...rest);
    };
  }
  probe.raw.destroy();

  const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  Server.prototype.emit = function patchedEmit(this: Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const req = args[0] as { method?: string; url?: string };
    const fn = functionOfRequest(req.method ?? 'GET', req.url ?? '/');
    const handle = () => emit.call(this, event, ...args);
    return fn ? attribution.run(fn, handle) : attribution.exit(handle);
  } as typeof Server.prototype.emit;
}

/** The uses of `seen` that `functionAccess` does not declare. */
export function undeclared(uses: Iterable<TableUse>): string[] {
  const out: string[] = [];
  for (const { fn, action, resource } of uses) {
    const access = functionAccess[fn];
    const allowed =
      resource === 'table'
        ? (access.table as readonly string[]).includes(action)
        : action === 'Query' && (access.indexes as readonly string[]).includes(resource.replace(/^index\//, ''));
    if (!allowed) out.push(`${fn}: dynamodb:${action} on ${resource}`);
  }
  return out.sort();
}

install();

// biome-ignore lint/correctness/noEmptyPattern: vitest reads fixtures from the first parameter's pattern; none is used
afterAll(({}, suite) => {
  const out = process.env.TABLE_ACCESS_OUT;
  if (out) {
    mkdirSync(out, { recursive: true });
    const name = basename(suite.file?.filepath ?? `file-${process.pid}`);
    writeFileSync(join(out, `${name}.json`), `${JSON.stringify([...seen.values()], null, 2)}\n`);
  }
  expect(
    undeclared(seen.values()),
    'DynamoDB requests sent by deployed functions that infra/permissions.ts does not allow (their IAM policies would refuse them in AWS)',
  ).toEqual([]);
});

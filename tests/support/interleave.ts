/**
 * Certain interleavings for race tests: parallel HTTP requests rarely hit the window between a read and its
 * transaction, so a race test runs a domain function with a database client that lets the rival act at the
 * exact point it needs.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { Deps } from '@mathisland/core';
import { onTestFinished } from 'vitest';

/**
 * `deps` whose database runs `rival` once, just after the `nth` command that `matches` has been answered. The test
 * fails (when it finishes) if the rival never ran to its end: no `nth` command matched, so the interleaving the test
 * names never happened and its assertions would prove nothing.
 */
export function interleaved(deps: Deps, matches: (command: object) => boolean, rival: () => Promise<unknown>, nth = 1): Deps {
  let seen = 0;
  let rivalDone = false;
  onTestFinished(({ task }) => {
    if (!rivalDone && task.result?.state !== 'fail') {
      throw new Error(`the rival step never ran: ${seen} command(s) matched, the rival waits for match number ${nth}`);
    }
  });
  const send = (async (command: object) => {
    const result = await deps.db.doc.send(command as never);
    if (matches(command) && ++seen === nth) {
      await rival();
      rivalDone = true;
    }
    return result;
  }) as Deps['db']['doc']['send'];
  return { ...deps, db: { ...deps.db, doc: Object.assign(Object.create(deps.db.doc), { send }) } };
}

/** A command of class `name` (e.g. `UpdateCommand`) whose input mentions `text` (a key prefix such as `OTP#`). */
export const commandOf =
  (name: string, text: string) =>
  (command: object): boolean =>
    command.constructor.name === name && JSON.stringify((command as { input: unknown }).input).includes(text);

/**
 * `deps` whose database throws `error` instead of sending a command that `matches` (a process stopping right there).
 * The test fails (when it finishes) if no command matched: the crash it names never happened.
 */
export function failing(deps: Deps, matches: (command: object) => boolean, error: Error): Deps {
  let thrown = false;
  onTestFinished(({ task }) => {
    if (!thrown && task.result?.state !== 'fail') throw new Error('the failure was never injected: no command matched');
  });
  const send = (async (command: object) => {
    if (matches(command)) {
      thrown = true;
      throw error;
    }
    return deps.db.doc.send(command as never);
  }) as Deps['db']['doc']['send'];
  return { ...deps, db: { ...deps.db, doc: Object.assign(Object.create(deps.db.doc), { send }) } };
}

/**
 * `deps` whose first transaction that `matches` is cancelled with `TransactionConflict`, as DynamoDB cancels one
 * that touches an item another transaction holds (DynamoDB Local never does). The test fails (when it finishes) if
 * no command matched.
 */
export function conflictingOnce(deps: Deps, matches: (command: object) => boolean): Deps {
  let cancelled = false;
  onTestFinished(({ task }) => {
    if (!cancelled && task.result?.state !== 'fail') throw new Error('no transaction was cancelled: no command matched');
  });
  const send = (async (command: object) => {
    if (!cancelled && matches(command)) {
      cancelled = true;
      throw new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
        $metadata: {},
        CancellationReasons: [{ Code: 'TransactionConflict' }],
      });
    }
    return deps.db.doc.send(command as never);
  }) as Deps['db']['doc']['send'];
  return { ...deps, db: { ...deps.db, doc: Object.assign(Object.create(deps.db.doc), { send }) } };
}

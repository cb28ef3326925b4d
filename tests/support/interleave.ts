/**
 * Certain interleavings for race tests: parallel HTTP requests rarely hit the window between a read and its
 * transaction, so a race test runs a domain function with a database client that lets the rival act at the
 * exact point it needs.
 */
import type { Deps } from '@mathisland/core';

/** `deps` whose database runs `rival` once, just after the `nth` command that `matches` has been answered. */
export function interleaved(deps: Deps, matches: (command: object) => boolean, rival: () => Promise<unknown>, nth = 1): Deps {
  let seen = 0;
  const send = (async (command: object) => {
    const result = await deps.db.doc.send(command as never);
    if (matches(command) && ++seen === nth) await rival();
    return result;
  }) as Deps['db']['doc']['send'];
  return { ...deps, db: { ...deps.db, doc: Object.assign(Object.create(deps.db.doc), { send }) } };
}

/** A command of class `name` (e.g. `UpdateCommand`) whose input mentions `text` (a key prefix such as `OTP#`). */
export const commandOf =
  (name: string, text: string) =>
  (command: object): boolean =>
    command.constructor.name === name && JSON.stringify((command as { input: unknown }).input).includes(text);

/** `deps` whose database throws `error` instead of sending a command that `matches` (a process stopping right there). */
export function failing(deps: Deps, matches: (command: object) => boolean, error: Error): Deps {
  const send = (async (command: object) => {
    if (matches(command)) throw error;
    return deps.db.doc.send(command as never);
  }) as Deps['db']['doc']['send'];
  return { ...deps, db: { ...deps.db, doc: Object.assign(Object.create(deps.db.doc), { send }) } };
}

/**
 * What `npm start` checks before its slow steps (building the staff panel, starting DynamoDB Local, migrating), so a
 * newcomer hears about a missing Java or a busy port at once, in one sentence, instead of after a minute or as a stack
 * trace. `main.ts` prints a {@link StartupError}'s message alone (`startup failed: ...`) and exits 1.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** A problem with the machine `npm start` runs on, told in words a newcomer can act on (no stack trace needed). */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** The oldest Java that runs AWS's DynamoDB Local jar. */
export const MIN_JAVA = 17;

/** The message for a missing `java` (also used by dynamo.ts when the spawn itself fails). */
export const JAVA_MISSING =
  `Java was not found: DynamoDB Local (the local database) needs Java ${MIN_JAVA} or newer on PATH. ` +
  `Install a JRE/JDK ${MIN_JAVA}+ (e.g. \`apt install openjdk-17-jre-headless\`, \`brew install openjdk@17\`, or ` +
  'Temurin from adoptium.net) and check that `java -version` works, then run npm start again.';

/**
 * The major version in `java -version`'s banner (it prints to stderr): `openjdk version "17.0.15"` → 17,
 * `java version "1.8.0_402"` → 8. Undefined when no version is found.
 */
export function javaMajor(banner: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(banner);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] ? Number(match[2]) : first;
}

/**
 * Checks that `java` runs and is {@link MIN_JAVA}+ (`java -version`, well under a second).
 * Errors: {@link StartupError} when `java` is not on PATH, does not run, or is older.
 */
export function checkJava(env: NodeJS.ProcessEnv = process.env): number {
  const run = spawnSync('java', ['-version'], { env, encoding: 'utf8', timeout: 30_000 });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw new StartupError(JAVA_MISSING);
  if (run.error || run.status !== 0) {
    throw new StartupError(
      `\`java -version\` failed (${run.error?.message ?? `exit ${run.status}`}): DynamoDB Local needs a working Java ${MIN_JAVA}+`,
    );
  }
  const major = javaMajor(`${run.stderr}${run.stdout}`);
  if (major !== undefined && major < MIN_JAVA) {
    throw new StartupError(`Java ${major} was found, DynamoDB Local needs Java ${MIN_JAVA} or newer: install it and put it first on PATH`);
  }
  return major ?? MIN_JAVA;
}

/**
 * Checks that `port` can be listened on at `host` by listening and closing at once (port 0 always can).
 * Errors: {@link StartupError} when another process holds the port (EADDRINUSE) or it needs privileges (EACCES).
 */
export async function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(portInUse(port));
      else if (error.code === 'EACCES')
        reject(new StartupError(`port ${port} needs privileges this user lacks; set PORT to a port above 1023`));
      else reject(error);
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** The message for a port another process holds (the probe above and the server's own listen). */
export function portInUse(port: number): StartupError {
  return new StartupError(`port ${port} is in use (another npm start?); stop it or set PORT to another port, e.g. PORT=3001 npm start`);
}

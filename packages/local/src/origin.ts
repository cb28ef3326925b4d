/**
 * The bare origin of a local stack (`exposeOrigin`): the same handlers on a port of their own without the local edge
 * in front, as the execute-api and lambda-url hosts are in AWS (DESIGN §12). Nothing is added to a request: one that
 * does not carry the secret origin header is refused 403 `forbidden_origin` by every function, and a caller that
 * holds the secret (a test playing CloudFront) names any viewer address it likes.
 */
import type { AddressInfo } from 'node:net';
import { createLocalServer } from './server';

type ServerOptions = Parameters<typeof createLocalServer>[0];

/** Listens on a free port of `host`; resolves with its URL and how to close it. */
export async function startBareOrigin(
  options: Pick<ServerOptions, 'handlers' | 'ready' | 'originSecret'> & { host: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createLocalServer({ ...options, mounts: {}, edge: false });
  await new Promise<void>((resolve) => server.listen(0, options.host, () => resolve()));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

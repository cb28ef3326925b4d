/** The Lambda context as the middlewares fill it in, read by the later ones and by the request log. */
import type { Deps } from '@mathisland/core';
import type { Staff } from '@mathisland/core/admin';
import type { User } from '@mathisland/core/auth';
import type { ThrottleTicket } from '@mathisland/core/throttle';
import type { Context } from 'aws-lambda';
import type { Viewer } from './viewer';

export interface AppContext extends Context {
  /** Set by `injectDeps`, first of all. */
  deps?: Deps;
  /** The `{id}` path parameter (`pathId`). */
  pathId?: number;
  /** Who is calling, from CloudFront-Viewer-Address on a request with a valid origin header (`originCheck`). */
  viewer?: Viewer;
  /** The signed-in learner (`authenticate`, `user` routes). */
  user?: User;
  /** The signed-in staff member (`authenticate`, `admin` routes). */
  staff?: Staff;
  /** The request's throttle hit, for a route that counts it in its own transaction (`throttle`). */
  throttleTicket?: ThrottleTicket;
  /** Parsed body and query (`validateInput`). */
  body?: unknown;
  query?: unknown;
}

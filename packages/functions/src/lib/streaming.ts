/**
 * What a streamed endpoint group (routes with `stream: true`, DESIGN §1: `tutor`, `adminexport`) hands `defineGroup`
 * (group.ts): middy's `executionModeStreamifyResponse` and the buffering stand-in of `awslambda` for a Node process
 * without one (responseStream.ts). Only the streamed groups import this module: middy's streaming mode loads
 * `node:stream/web` and `node:stream/promises` at import, which a buffered group never uses (about 0.5 ms of its
 * cold start, issue 30 §5; tests/budgets.test.ts holds it).
 */
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import { installStreamingStandIn } from './responseStream';

export const streaming = {
  /** middy's execution mode that wraps the handler with `awslambda.streamifyResponse`. */
  executionMode: executionModeStreamifyResponse,
  /** Installs the stand-in where no runtime defines `awslambda.streamifyResponse` (`sst dev`). */
  installStandIn: installStreamingStandIn,
};

export type Streaming = typeof streaming;

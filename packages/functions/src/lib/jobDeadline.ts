/**
 * The deadline of a scheduled job's run: the Lambda's remaining time less a margin, as the options a job takes
 * (`{ deadlineMs }`, epoch ms; none outside Lambda). A job stops taking new work at it and the next run continues.
 */

/** `{ deadlineMs }` for an invocation with `context`, keeping `marginMs` back; `{}` without a Lambda context. */
export function jobDeadline(context: { getRemainingTimeInMillis?: () => number } | undefined, marginMs: number): { deadlineMs?: number } {
  const left = context?.getRemainingTimeInMillis?.();
  return left === undefined ? {} : { deadlineMs: Date.now() + left - marginMs };
}

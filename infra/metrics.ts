/**
 * The service's business metrics (issue 30): the one manifest of what the code counts (packages/core/src/metrics.ts,
 * Powertools Metrics in CloudWatch's Embedded Metric Format) and of what the Monitoring stack graphs and alarms on
 * (stacks/monitoring/dashboard.ts). Both read names, units and dimensions from here, so they cannot drift apart: a
 * metric the code does not emit cannot be graphed, and the emitter's types refuse a dimension or a value not listed.
 *
 * Every metric lives in namespace `mathisland/<stage>` ({@link metricNamespace}; the functions get it as
 * POWERTOOLS_METRICS_NAMESPACE, stacks/service.ts), carries the dimension `service` = {@link METRICS_SERVICE} (added
 * by Powertools) and the dimensions listed for it, each with one of the values listed (never a personal value). A
 * dashboard or alarm names a metric by all of its dimensions: {@link metricDimensions}.
 */

/** The `service` dimension of every metric (Powertools' serviceName). */
export const METRICS_SERVICE = 'mathisland';

/** The namespace of the service's own metrics in `stage` (also that of the 5xx log metric filters). */
export const metricNamespace = (stage: string): string => `mathisland/${stage}`;

/**
 * The values of each dimension. `scope` has no fixed list here: it is a throttle scope of
 * infra/routes/throttleScopes.ts or one of {@link extraThrottleScopes}, graphed by a search over whatever scopes occurred.
 */
export const dimensionValues = {
  /** An answer right or wrong. */
  result: ['right', 'wrong'],
  /** What a completion completed for the first time: a lesson, or an island (node: its quiz, or its last lesson). */
  kind: ['lesson', 'island'],
  /** Who took the money of a paid order: the gateway, the marketplace, or nobody (a free order: a 100 % discount). */
  provider: ['gateway', 'marketplace', 'free'],
  /** Who refunded an order: staff (`POST /api/admin/orders/{id}/refund`) or the marketplace (a store-side refund). */
  by: ['staff', 'store'],
  /**
   * A tutor question's outcome: answered; refused as off-topic; the help-line message (self-harm); the abuse help
   * message; the personal-data message; an answer cut at the time limit; an answer the model stopped before its end
   * (`incomplete`: its token cap or the provider's content filter, told apart on the `tutor answer` log line; one
   * value for both, as the refusal alarm reads every outcome and an alarm reads at most 10 metrics); the model failed.
   */
  outcome: ['answer', 'refusal', 'help_line', 'abuse_help', 'personal_data', 'time_limit', 'incomplete', 'failed'],
  /** Who decided a tutor outcome: the gate before the model (stage 1), the model (stage 2), or the answer cache. */
  stage: ['gate', 'model', 'cache'],
} as const;

/** Throttles outside the route manifest's scopes, counted as `Throttled` with these scope names. */
export const extraThrottleScopes = {
  /** A new code asked for within the resend cooldown of the last one (`POST /api/auth/otp/request`). */
  otpResend: 'otp_resend',
  /** A staff username slowed after failed sign-ins (`POST /api/admin/auth/login`). */
  staffSignIn: 'staff_sign_in',
} as const;

/**
 * The tutor outcomes that can happen, each with the stage that decides it (the dashboard graphs each pair). At most
 * 10 pairs: the `tutor-refusals` alarm reads every one, and an alarm reads at most 10 metrics (the synthesis fails).
 */
export const tutorOutcomes = [
  { outcome: 'answer', stage: 'model' },
  { outcome: 'answer', stage: 'cache' },
  { outcome: 'refusal', stage: 'gate' },
  { outcome: 'refusal', stage: 'model' },
  { outcome: 'help_line', stage: 'gate' },
  { outcome: 'abuse_help', stage: 'gate' },
  { outcome: 'personal_data', stage: 'gate' },
  { outcome: 'time_limit', stage: 'model' },
  { outcome: 'incomplete', stage: 'model' },
  { outcome: 'failed', stage: 'model' },
] as const;
export type TutorOutcome = (typeof tutorOutcomes)[number];

/** A dimension of a metric besides `service`. */
export type DimensionName = keyof typeof dimensionValues | 'scope';

/** One business metric: its unit (CloudWatch's name) and its dimensions besides `service`. */
export interface MetricSpec {
  unit: 'Count';
  dimensions: readonly DimensionName[];
  /** What one count is. */
  description: string;
}

/** Each metric, its unit and dimensions. Every one is a count of events: graph and alarm on its Sum. */
export const businessMetrics = {
  Answers: {
    unit: 'Count',
    dimensions: ['result'],
    description: 'An answer recorded (POST /api/questions/{id}/answer, and a review answer, POST /api/review/{id}/answer)',
  },
  Completions: { unit: 'Count', dimensions: ['kind'], description: 'A lesson or an island completed for the first time' },
  Purchases: { unit: 'Count', dimensions: ['provider'], description: 'An order paid, by who took the money' },
  Refunds: { unit: 'Count', dimensions: ['by'], description: 'A paid order refunded, by staff or at the marketplace' },
  TutorOutcomes: { unit: 'Count', dimensions: ['outcome', 'stage'], description: "A tutor question's outcome and its stage" },
  Throttled: { unit: 'Count', dimensions: ['scope'], description: 'A request refused 429 throttled, by throttle scope' },
  TransactionConflictRetries: {
    unit: 'Count',
    dimensions: [],
    description: 'A transaction cancelled by TransactionConflict (another held one of its items) and tried again',
  },
} as const satisfies Record<string, MetricSpec>;
export type BusinessMetric = keyof typeof businessMetrics;

/** The dimensions one count of metric `M` carries besides `service`, typed by the manifest. */
export type MetricDimensions<M extends BusinessMetric> = {
  [D in (typeof businessMetrics)[M]['dimensions'][number]]: D extends keyof typeof dimensionValues
    ? (typeof dimensionValues)[D][number]
    : string;
};

/** All dimensions of one count of `metric` as CloudWatch names them: `service` and `dimensions`. */
export const metricDimensions = <M extends BusinessMetric>(_metric: M, dimensions: MetricDimensions<M>): Record<string, string> => ({
  service: METRICS_SERVICE,
  ...(dimensions as Record<string, string>),
});

/**
 * Counting what the service does (issue 30; the manifest of names, units and dimensions: infra/metrics.ts), with
 * Powertools Metrics: each count is one CloudWatch Embedded Metric Format (EMF) line on stdout, which CloudWatch Logs
 * turns into a metric of namespace POWERTOOLS_METRICS_NAMESPACE (`mathisland/<stage>`, set by the stacks; locally
 * `mathisland/local`), with the dimension `service` and the count's own.
 *
 * A count is published at once (a single-metric instance per metric, kept for the worker), so nothing is left to
 * flush when an invocation ends, jobs count the same way as requests, and counts with different dimensions never
 * share a line. Adding the dimensions and the metric is synchronous, so concurrent requests of one process (the
 * local runtime) cannot mix their dimensions. No request waits on it: the line is written to stdout.
 *
 * Off where POWERTOOLS_METRICS_DISABLED is true (read when a metric's instance is made: the tests set it,
 * vitest.config.ts). Never a personal value in a dimension: the manifest's fixed values and throttle scope names.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { type BusinessMetric, businessMetrics, METRICS_SERVICE, type MetricDimensions } from '../../../infra/metrics';
import { logger } from './log';

/** What a domain needs of the manifest comes through here (a domain reads no infra manifest itself). */
export { type BusinessMetric, extraThrottleScopes, type MetricDimensions, type TutorOutcome } from '../../../infra/metrics';

const instances = new Map<BusinessMetric, Metrics>();

function instanceOf(name: BusinessMetric): Metrics {
  let instance = instances.get(name);
  if (!instance) {
    instance = new Metrics({
      serviceName: METRICS_SERVICE,
      namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || 'mathisland/local',
      singleMetric: true,
      logger,
    });
    instances.set(name, instance);
  }
  return instance;
}

/**
 * Counts one event of metric `name` with its `dimensions` (those infra/metrics.ts lists for it, typed). Never throws:
 * a count is never worth a failed request (a failure is logged).
 */
export function countEvent<M extends BusinessMetric>(name: M, dimensions: MetricDimensions<M>): void {
  try {
    const instance = instanceOf(name);
    for (const [key, value] of Object.entries(dimensions as Record<string, string>)) instance.addDimension(key, value);
    instance.addMetric(name, MetricUnit[businessMetrics[name].unit], 1);
  } catch (error) {
    instances.get(name)?.clearDimensions();
    logger.warn('metric not counted', { metric: name, error: (error as Error).message });
  }
}

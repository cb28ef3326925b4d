/**
 * The charts docs/performance.md leads with, drawn by the bench from its own run (Vega-Lite specs rendered to SVG by
 * Vega, headless): the same-run ratio of each hot route with its target, the latencies of the journey's routes
 * beside their DynamoDB floor, and each Lambda's cold import over the DynamoDB client's alone with its target.
 * Written next to the report (`performance/<name>.svg`); the report links them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { type BenchResults, bareBaselines, HOT_RATIO_TARGET, hotRoutes } from './figures';

/** A chart written for the report: its file (relative to the report) and what it shows. */
export interface Chart {
  file: string;
  title: string;
}

const FONT = 'DejaVu Sans, Verdana, sans-serif';
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

async function toSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

const base = (title: string, subtitle: string) =>
  ({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, subtitle, anchor: 'start', font: FONT, subtitleFont: FONT },
    config: {
      font: FONT,
      view: { stroke: null },
      axis: { labelFont: FONT, titleFont: FONT, labelLimit: 320 },
      legend: { labelFont: FONT, titleFont: FONT },
    },
    background: 'white',
  }) as const;

/** Route p50 over its DynamoDB floor's p50, each hot route, with the target of those held to one. */
function ratioSpec(r: BenchResults): TopLevelSpec {
  const rows = [
    ...hotRoutes(r).map((h) => ({
      route: h.name,
      ratio: round(h.summary.ratio),
      target: h.target ?? null,
      verdict: h.target === undefined ? 'no target' : h.summary.ratio <= h.target ? 'within its target' : 'over its target',
    })),
    ...bareBaselines(r).map((b) => ({ route: b.label, ratio: round(b.summary.ratio), target: null, verdict: 'bare baseline' })),
  ];
  return {
    ...base(
      'Same-run ratio: route p50 ÷ its own DynamoDB time (p50)',
      `home and answer are held to ${HOT_RATIO_TARGET}× (the red ticks); the bare baselines: each route’s own requests on a plain server`,
    ),
    width: 520,
    height: { step: 26 },
    data: { values: rows },
    encoding: { y: { field: 'route', type: 'nominal', sort: null, title: null } },
    layer: [
      {
        // Bars from 1 (nothing but DynamoDB) to the ratio.
        mark: { type: 'bar', height: 16, clip: true },
        encoding: {
          x: {
            field: 'ratio',
            type: 'quantitative',
            title: 'ratio (1 = nothing but DynamoDB)',
            scale: { domainMin: 1, domainMax: Math.max(...rows.map((row) => row.ratio)) + 0.03, zero: false },
          },
          x2: { datum: 1 },
          color: {
            field: 'verdict',
            type: 'nominal',
            title: null,
            scale: {
              domain: ['within its target', 'over its target', 'no target', 'bare baseline'],
              range: ['#2e7d32', '#c62828', '#90a4ae', '#5c6bc0'],
            },
          },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 4 },
        encoding: { x: { field: 'ratio', type: 'quantitative' }, text: { field: 'ratio', format: '.2f' } },
      },
      {
        transform: [{ filter: 'datum.target !== null' }],
        mark: { type: 'tick', color: '#c62828', thickness: 3, size: 24 },
        encoding: { x: { field: 'target', type: 'quantitative' } },
      },
    ],
  };
}

/** p50, p99 and the DynamoDB floor's p50 of each route of the journey, ms. */
function latencySpec(r: BenchResults): TopLevelSpec {
  const rows = r.journey.flatMap((j) => [
    { route: j.route, measure: 'DynamoDB floor p50', ms: round(j.floorP50, 1) },
    { route: j.route, measure: 'route p50', ms: round(j.p50, 1) },
    { route: j.route, measure: 'route p99', ms: round(j.p99, 1) },
  ]);
  return {
    ...base(
      'Latency of the journey’s routes (local runtime, DynamoDB Local)',
      'each route beside the time its own DynamoDB requests took, same calls',
    ),
    width: 520,
    height: { step: 12 },
    data: { values: rows },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'route', type: 'nominal', sort: null, title: null },
      yOffset: { field: 'measure', sort: ['DynamoDB floor p50', 'route p50', 'route p99'] },
      x: { field: 'ms', type: 'quantitative', title: 'ms' },
      color: {
        field: 'measure',
        type: 'nominal',
        title: null,
        sort: ['DynamoDB floor p50', 'route p50', 'route p99'],
        scale: { range: ['#90a4ae', '#1565c0', '#ef6c00'] },
      },
    },
  };
}

/** Each Lambda's whole cold import over the DynamoDB client's alone, with its target. */
function importSpec(r: BenchResults): TopLevelSpec {
  const rows = r.bundles.groups.map((g) => ({
    group: g.group,
    ratio: round(g.ratio),
    target: g.ratioTarget,
    ms: round(g.importMs, 1),
    verdict: g.ratio <= g.ratioTarget ? 'within its target' : 'over its target',
  }));
  return {
    ...base(
      'Cold import as Lambda runs it ÷ requiring the DynamoDB client alone',
      `median of ${r.options.importRuns} fresh processes each; the client alone: ${round(r.bundles.dynamoClientMs, 1)} ms; targets (red ticks): 1.5, the tutor 2`,
    ),
    width: 520,
    height: { step: 20 },
    data: { values: rows },
    encoding: { y: { field: 'group', type: 'nominal', sort: null, title: null } },
    layer: [
      {
        mark: { type: 'bar', height: 13 },
        encoding: {
          x: { field: 'ratio', type: 'quantitative', title: 'ratio (whole import ÷ DynamoDB client)' },
          color: {
            field: 'verdict',
            type: 'nominal',
            title: null,
            scale: { domain: ['within its target', 'over its target'], range: ['#2e7d32', '#c62828'] },
          },
          tooltip: [{ field: 'ms', title: 'ms' }],
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 4 },
        encoding: { x: { field: 'ratio', type: 'quantitative' }, text: { field: 'ratio', format: '.2f' } },
      },
      { mark: { type: 'tick', color: '#c62828', thickness: 3, size: 18 }, encoding: { x: { field: 'target', type: 'quantitative' } } },
    ],
  };
}

/** Draws the charts of `r` into `<dir of report>/performance/`; returns them for the report. */
export async function writeCharts(r: BenchResults, reportFile: string): Promise<Chart[]> {
  const folder = join(dirname(reportFile), 'performance');
  mkdirSync(folder, { recursive: true });
  const charts: Array<[string, string, TopLevelSpec]> = [
    ['ratios.svg', 'Same-run ratio of the hot routes', ratioSpec(r)],
    ['latency.svg', 'Latency of the journey’s routes beside their DynamoDB time', latencySpec(r)],
    ['cold-import.svg', 'Cold import of each Lambda over the DynamoDB client alone', importSpec(r)],
  ];
  const written: Chart[] = [];
  for (const [file, title, spec] of charts) {
    writeFileSync(join(folder, file), await toSvg(spec));
    written.push({ file: `performance/${file}`, title });
  }
  return written;
}

/**
 * The routes contract (issue 14 §6): the routes manifest (`infra/routes.ts`), the handlers (the route definitions of
 * each endpoint group's module), what is deployed (API Gateway's routes, and the streamed routes CloudFront sends to a
 * function URL in RESPONSE_STREAM mode) are the same set of route keys (`METHOD /path`).
 *
 * The OpenAPI document (DESIGN §10, `GET /api/schema/`) joins as one more entry of `sources` once it exists:
 *   'OpenAPI document': async () => openApiRouteKeys(<the generated document>),
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { endpointGroups, routeKey, routes } from '../../infra/routes';
import { installAwsLambdaShim } from '../../packages/local/src/awslambda';
import { pathPattern } from '../Web';
import { appLambdas, baseStage, groupOf, openApiRouteKeys, resourcesOf, type Templates } from './support';

let base: Templates;
beforeAll(() => {
  ({ templates: base } = baseStage());
});

/** Route keys of every group module's definitions (what the handlers implement). */
async function handlerRouteKeys(): Promise<string[]> {
  // A streamed group's module wraps its handler with the Lambda runtime's `awslambda.streamifyResponse` at load.
  installAwsLambdaShim();
  const keys: string[] = [];
  for (const group of endpointGroups) {
    const mod = (await import(`../../packages/functions/src/groups/${group}.ts`)) as { routes: Record<string, unknown> };
    keys.push(...Object.keys(mod.routes));
  }
  return keys;
}

/**
 * Route keys deployed: API Gateway's route keys (less `$default`), plus each route CloudFront sends to a function URL
 * whose function is the route's group and streams (RESPONSE_STREAM).
 */
function deployedRouteKeys(): string[] {
  const apiKeys = Object.values(resourcesOf(base.Api, 'AWS::ApiGatewayV2::Route'))
    .map((r) => r.Properties.RouteKey as string)
    .filter((key) => key !== '$default');
  const streamingGroups = new Map<string, string>();
  for (const [urlId, url] of Object.entries(resourcesOf(base.Tutor, 'AWS::Lambda::Url'))) {
    if (url.Properties.InvokeMode !== 'RESPONSE_STREAM') continue;
    const fnId = url.Properties.TargetFunctionArn['Fn::GetAtt'][0] as string;
    const group = groupOf(appLambdas(base.Tutor)[fnId]!);
    if (group) streamingGroups.set(group, urlId);
  }
  const [distribution] = Object.values(resourcesOf(base.Web, 'AWS::CloudFront::Distribution'));
  const config = distribution!.Properties.DistributionConfig;
  const urlKeys: string[] = [];
  for (const behavior of config.CacheBehaviors as Array<{ PathPattern: string; TargetOriginId: string; AllowedMethods: string[] }>) {
    const origin = config.Origins.find((o: { Id: string }) => o.Id === behavior.TargetOriginId);
    for (const [group, urlId] of streamingGroups) {
      if (!JSON.stringify(origin.DomainName).includes(`ExportsOutputFnGetAtt${urlId}FunctionUrl`)) continue;
      for (const r of routes.filter((x) => x.group === group && pathPattern(x.path) === behavior.PathPattern)) {
        if (behavior.AllowedMethods.includes(r.method)) urlKeys.push(routeKey(r));
      }
    }
  }
  return [...apiKeys, ...urlKeys];
}

/** Each source of route keys; every one must list exactly the manifest's routes, each once. */
const sources: Record<string, () => string[] | Promise<string[]>> = {
  'the routes manifest (infra/routes.ts)': () => routes.map(routeKey),
  'the handlers (group modules)': handlerRouteKeys,
  'the deployed routes (API Gateway and streaming function URLs)': deployedRouteKeys,
};

describe('routes contract', () => {
  const manifest = routes.map(routeKey).sort();

  it.each(Object.keys(sources))('%s: exactly the manifest’s routes, each once', async (source) => {
    const keys = await sources[source]!();
    expect(keys.length, `${source} lists a route twice`).toBe(new Set(keys).size);
    expect([...keys].sort()).toEqual(manifest);
  });

  it('reads an OpenAPI document’s operations as route keys (for the document, when it exists)', () => {
    const document = {
      openapi: '3.1.0',
      paths: {
        '/api/home': { get: {}, parameters: [] },
        '/api/nodes/{id}/questions': { get: {}, summary: 'x' },
        '/api/tickets': { get: {}, post: {} },
      },
    };
    expect(openApiRouteKeys(document).sort()).toEqual([
      'GET /api/home',
      'GET /api/nodes/{id}/questions',
      'GET /api/tickets',
      'POST /api/tickets',
    ]);
  });
});

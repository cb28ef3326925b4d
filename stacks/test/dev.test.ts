/**
 * `sst dev` (README "Deploy to AWS", docs/deploy.md "Working against AWS: sst dev"): the stage as SST's dev mode
 * synthesizes it. Each function is SST's live-lambda bridge (the handler runs on the developer's machine) and SST's
 * StaticSite deploys nothing in dev mode unless told. Here: the distribution, which alone adds the origin header every
 * function demands, is deployed as for `sst deploy`, with the same outputs; and the streamed groups' URLs are BUFFERED,
 * since the bridge returns a whole response (stacks/Tutor.ts), which a RESPONSE_STREAM URL would send as the body.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, streamedGroups } from '../../infra/routes';
import { baseStage, printedOutputs, resourcesOf, synthVariant, type Templates } from './support';

let base: Templates;
let dev: Templates;

beforeAll(async () => {
  ({ templates: base } = baseStage());
  // The panel the global setup built is uploaded as it is.
  dev = await synthVariant('devstage', { ADMIN_PREBUILT: '1' }, ['Tutor', 'Web'], undefined, 'dev');
});

describe('sst dev', () => {
  it('runs the streamed groups on the developer’s machine behind BUFFERED function URLs', () => {
    const functions = resourcesOf(dev.Tutor, 'AWS::Lambda::Function');
    const urls = Object.values(resourcesOf(dev.Tutor, 'AWS::Lambda::Url'));
    expect(urls).toHaveLength(streamedGroups.length);
    for (const url of urls) {
      const [fnId] = url.Properties.TargetFunctionArn['Fn::GetAtt'];
      expect(functions[fnId]!.Properties.Handler, fnId).toBe('live-lambda.handler');
      expect(url.Properties.InvokeMode, fnId).toBe('BUFFERED');
    }
    // `sst deploy` keeps streaming.
    for (const url of Object.values(resourcesOf(base.Tutor, 'AWS::Lambda::Url'))) expect(url.Properties.InvokeMode).toBe('RESPONSE_STREAM');
  });

  it('deploys the distribution, which adds the origin header to the API and the function URLs', () => {
    const [distribution, ...more] = Object.values(resourcesOf(dev.Web, 'AWS::CloudFront::Distribution'));
    expect(more).toEqual([]);
    const origins = distribution!.Properties.DistributionConfig.Origins as Array<{
      DomainName: unknown;
      OriginCustomHeaders?: Array<{ HeaderName: string }>;
    }>;
    const dynamic = origins.filter((o) => /ApiEndpoint|FunctionUrl/.test(JSON.stringify(o.DomainName)));
    // The API's, and one per streamed route (Web.ts).
    expect(dynamic).toHaveLength(1 + routes.filter((r) => r.stream).length);
    for (const origin of dynamic) expect(origin.OriginCustomHeaders?.map((h) => h.HeaderName)).toEqual(['x-origin-verify']);
    expect(Object.keys(resourcesOf(dev.Web, 'Custom::S3Uploader'))).toHaveLength(1);
  });

  it('prints the outputs `sst deploy` prints, Url and AdminUrl from the distribution', () => {
    const outputs = printedOutputs(dev);
    expect(Object.keys(outputs).sort()).toEqual(Object.keys(printedOutputs(base)).sort());
    expect(JSON.stringify(outputs.Url)).toMatch(
      /^\{"Fn::Join":\["",\["https:\/\/",\{"Fn::GetAtt":\["adminDistribution\w+","DomainName"\]\}\]\]\}$/,
    );
    expect(JSON.stringify(outputs.AdminUrl)).toContain('"/admin/"');
    expect(JSON.stringify(outputs.DistributionDomain)).toContain('DomainName');
    expect(JSON.stringify(outputs)).not.toContain('undefined');
  });
});

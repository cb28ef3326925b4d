/**
 * Bundle budgets held by CI (issue 15): each endpoint group built exactly as SST deploys it (infra/functions.ts,
 * ESM, minified, the AWS SDK v3 from the runtime, the openai SDK's uncalled parts left out), measured from
 * esbuild's output. A group that grows past its budget (300 KiB; 500 KiB for tutor and rag, which carry the
 * openai SDK) fails here, with the ten largest inputs in the message. The DynamoDB request counts per route are
 * held by tests/requests.test.ts (exact counts). The built model adapter is run against the local model API, so
 * the SDK as bundled is proven to work, not only to be small.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createOpenAiModel } from '@mathisland/core/providers/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleBudgetKiB, sstEsbuildOptions } from '../infra/functions';
import { endpointGroups } from '../infra/routes';
import { bundleGroups, type GroupBundle, sstEsbuild } from '../scripts/lib/bundles';
import { useStack } from './support/stack';

const outDir = mkdtempSync(join(tmpdir(), 'mathisland-bundles-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

describe('bundle budgets', () => {
  let bundles: GroupBundle[] = [];
  beforeAll(async () => {
    bundles = await bundleGroups(endpointGroups, join(outDir, 'groups'));
  }, 120_000);

  it('keeps every endpoint group within its budget: 300 KiB, tutor and rag 500 KiB', () => {
    const over = bundles
      .filter((b) => b.bytes > bundleBudgetKiB(b.group) * 1024)
      .map(
        (b) =>
          `${b.group}: ${kib(b.bytes)} KiB > ${bundleBudgetKiB(b.group)} KiB; largest inputs: ${b.inputs
            .slice(0, 10)
            .map((i) => `${i.name} ${kib(i.bytes)}`)
            .join(', ')}`,
      );
    expect(over).toEqual([]);
    expect(bundles.map((b) => b.group)).toEqual([...endpointGroups]);
  });

  it('carries the seed curriculum in no group and the openai SDK only in the groups that ask the model', () => {
    for (const b of bundles) {
      // The seed's data and its loader; its item schemas (seed/schema.ts) are the content's stored shape.
      expect(
        b.files.filter((f) => /curriculum\/seed\/(.+\.json|load\.ts)$/.test(f)),
        b.group,
      ).toEqual([]);
      const sdk = b.inputs.some((i) => i.name === 'openai');
      expect(sdk, b.group).toBe(b.group === 'tutor' || b.group === 'rag');
    }
  });
});

describe('the model adapter as bundled', () => {
  const stack = useStack();

  it('streams a chat answer with its usage and embeds texts through the bundled openai SDK', async () => {
    const result = await sstEsbuild.build(sstEsbuildOptions(['packages/core/src/providers/openai.ts'], join(outDir, 'adapter')));
    expect(Object.keys(result.metafile.inputs).some((p) => p.includes('node_modules/openai/client.mjs'))).toBe(true);
    const adapter: { createOpenAiModel: typeof createOpenAiModel } = await import(
      pathToFileURL(join(outDir, 'adapter', 'openai.mjs')).href
    );
    const ai = stack.deps.settings.ai;
    const model = adapter.createOpenAiModel({ ...ai, apiKey: ai.apiKey ?? '' });
    let text = '';
    let usage: { promptTokens: number; completionTokens: number } | undefined;
    for await (const part of model.streamChat([{ role: 'user', content: 'What is 3 + 4?' }], { signal: new AbortController().signal })) {
      if ('text' in part && part.text) text += part.text;
      if ('usage' in part && part.usage) usage = part.usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(usage?.completionTokens).toBeGreaterThan(0);
    const vectors = await model.embed(['three plus four', 'سه به علاوه چهار']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]!.length).toBeGreaterThan(100);
    expect(vectors[0]!.every((x) => Number.isFinite(x))).toBe(true);
  });
});

/**
 * The model client that loads its adapter at the first call (providers/model.ts): nothing is loaded before a
 * call, the adapter is built once and reused, a failed load is tried again, and both calls pass through.
 */
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../config/settings';
import { loadedOnFirstCall } from './model';
import type { ModelClient } from './ports';

const ai = { ...loadSettings({ SECRET_KEY: 'x'.repeat(40), TABLE_NAME: 't', STAGE: 'test' }).ai, apiKey: 'key' };

function fakeAdapter(): ModelClient {
  return {
    chatModel: 'fake',
    embeddingModel: 'fake-embed',
    async *streamChat() {
      yield { text: 'one' };
      yield { text: 'two' };
    },
    embed: async (texts) => texts.map((t) => [t.length]),
  };
}

describe('loadedOnFirstCall', () => {
  it('loads nothing until the first call, then builds the adapter once', async () => {
    let loads = 0;
    let builds = 0;
    const model = loadedOnFirstCall(ai, async () => {
      loads++;
      return () => {
        builds++;
        return fakeAdapter();
      };
    });
    expect(model.chatModel).toBe(ai.model);
    expect(model.embeddingModel).toBe(ai.embeddingModel);
    expect(loads).toBe(0);
    const chunks = [];
    for await (const chunk of model.streamChat([{ role: 'user', content: 'hi' }], { signal: new AbortController().signal }))
      chunks.push(chunk);
    expect(chunks).toEqual([{ text: 'one' }, { text: 'two' }]);
    expect(await model.embed(['ab', 'abc'])).toEqual([[2], [3]]);
    await Promise.all([model.embed(['a']), model.embed(['b'])]);
    expect({ loads, builds }).toEqual({ loads: 1, builds: 1 });
  });

  it('tries the load again after it failed', async () => {
    let loads = 0;
    const model = loadedOnFirstCall(ai, async () => {
      loads++;
      if (loads === 1) throw new Error('cannot load');
      return fakeAdapter;
    });
    await expect(model.embed(['a'])).rejects.toThrow('cannot load');
    expect(await model.embed(['abcd'])).toEqual([[4]]);
    expect(loads).toBe(2);
  });
});

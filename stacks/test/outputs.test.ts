/**
 * What a deploy prints (docs/deploy.md "Outputs"): every output of the stage is a row of the docs' table, with the
 * stack that prints it, and the table has no other; the DynamoDB table's name is the one the docs give.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseStage, printedOutputs, resourcesOf, type Templates } from './support';

let base: Templates;
const deployDoc = readFileSync('docs/deploy.md', 'utf8');

beforeAll(() => {
  ({ templates: base } = baseStage());
});

/** `<output> <stack>` for each row of the table under docs/deploy.md's "### Outputs" heading. */
function documentedOutputs(doc: string): string[] {
  const section = /\n### Outputs\n([\s\S]*?)(\n#|$)/.exec(doc)?.[1] ?? '';
  return [...section.matchAll(/^\| `(\w+)` \| (\w+) \|/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
}

describe('the stage’s outputs', () => {
  it('are each named in docs/deploy.md with the stack that prints it, and the docs name no other', () => {
    const printed = Object.entries(base)
      .flatMap(([stack, template]) => Object.keys(printedOutputs({ [stack]: template })).map((name) => `${name} ${stack}`))
      .sort();
    expect(printed).toContain('TableName Storage');
    expect(printed).toContain('AdminexportUrl Tutor');
    expect(documentedOutputs(deployDoc)).toEqual(printed);
  });

  it('give the table’s name, <stage>-mathisland-Data, which the docs use for the retained production table', () => {
    const tables = Object.entries(resourcesOf(base.Storage, 'AWS::DynamoDB::Table'));
    expect(tables).toHaveLength(1);
    const [tableId, table] = tables[0]!;
    expect(table.Properties.TableName).toBe('test-mathisland-Data');
    expect(base.Storage.findOutputs('TableName').TableName!.Value).toEqual({ Ref: tableId });
    expect(deployDoc).toContain('`production-mathisland-Data`');
    expect(deployDoc).not.toMatch(/mathisland-Storage-/);
  });
});

/**
 * The README's walkthroughs work when pasted (issue 13 item 8): every ```sh block marked `<!-- walkthrough -->` in
 * README.md is run as written, in order, in one bash session, against a local stack (only `localhost:3000`
 * becomes the test stack's port; the shell's DYNAMODB_ENDPOINT and TABLE_NAME name the stack's table, so `npm run
 * createsuperuser` writes there as it would to a running `npm start`'s). Each command's output is checked against its own comment: a comment naming an
 * HTTP status and error code (`# 429 ai_quota_exceeded`) must see that code; a comment quoting JSON members
 * (`# "stars":3,"xp":65`) must see them; a `→ <url>` must see that URL; and every other command must not answer
 * an error body. The startup banner's addresses are opened too.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bannerLinks } from '../packages/local/src/banner';
import { useStack } from './support/stack';

interface Command {
  line: string;
  comment: string;
}

/** The commands of the README's walkthrough blocks, continuation lines joined, with their trailing comments. */
function walkthroughCommands(readme: string): Command[] {
  const blocks = [...readme.matchAll(/<!-- walkthrough[^>]*-->\n```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const commands: Command[] = [];
  for (const block of blocks) {
    for (const line of block.replace(/\\\n\s*/g, '').split('\n')) {
      if (!line.trim() || line.trim().startsWith('#')) continue;
      const comment = /\s{2,}#\s+(.*)$/.exec(line);
      commands.push({ line: comment ? line.slice(0, comment.index) : line, comment: comment?.[1] ?? '' });
    }
  }
  return commands;
}

/** Runs `commands` in one bash with `env` added to its environment, returning each one's output. */
function runInBash(commands: Command[], port: number, env: Record<string, string>): Promise<string[]> {
  const script = commands
    .map((c, i) => `printf '\\n@@@%d@@@\\n' ${i}\n${c.line.replaceAll('localhost:3000', `localhost:${port}`)}`)
    .join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bash exited ${code}: ${err}`));
      // [before the first marker, index 0, output 0, index 1, output 1, ...]
      const parts = out.split(/\n@@@(\d+)@@@\n/);
      const outputs = new Map<number, string>();
      for (let k = 1; k < parts.length; k += 2) outputs.set(Number(parts[k]), parts[k + 1] ?? '');
      resolve(commands.map((_, i) => outputs.get(i) ?? ''));
    });
  });
}

/** What a command's comment promises about its output, checked; returns the broken promises. */
function check(command: Command, output: string, port: number): string[] {
  const problems: string[] = [];
  const comment = command.comment.replaceAll('localhost:3000', `localhost:${port}`);
  const error = /\b([45]\d\d) ([a-z_]+)\b/.exec(comment);
  if (error) {
    if (!output.includes(`"code":"${error[2]}"`) || !new RegExp(`HTTP/1.1 ${error[1]}\\b|"code"`).test(output)) {
      problems.push(`expected ${error[1]} ${error[2]}`);
    }
  } else if (/"code":"[a-z_]+","detail"/.test(output) || /HTTP\/1.1 [45]\d\d/.test(output)) {
    problems.push('answered an error');
  }
  for (const members of comment.match(/"[A-Za-z]+":[^\s]+/g) ?? []) {
    if (!output.includes(members)) problems.push(`expected ${members}`);
  }
  const url = /→ (http\S+)/.exec(comment);
  if (url && !output.includes(url[1] as string)) problems.push(`expected ${url[1]}`);
  return problems;
}

describe('README walkthroughs', () => {
  const stack = useStack();

  it('answer as the README says when pasted into one shell, in order', async () => {
    const commands = walkthroughCommands(readFileSync('README.md', 'utf8'));
    expect(commands.length).toBeGreaterThan(25);
    const outputs = await runInBash(commands, stack.port, {
      DYNAMODB_ENDPOINT: stack.deps.settings.dynamodbEndpoint as string,
      TABLE_NAME: stack.deps.db.tableName,
    }).finally(() => rmSync('admin.jar', { force: true })); // the admin block's cookie jar
    const failures = commands.flatMap((command, i) => {
      const problems = check(command, outputs[i] as string, stack.port);
      return problems.length
        ? [`${command.line.trim().slice(0, 110)}\n  ${problems.join('; ')}\n  got: ${String(outputs[i]).slice(0, 300)}`]
        : [];
    });
    expect(failures).toEqual([]);
    // The learner's island is completed and the invoice exists; the tutor's first answer streamed as text.
    const at = (needle: string) => outputs[commands.findIndex((c) => c.line.includes(needle))] as string;
    expect(at('/api/nodes/4001/quiz/complete')).toMatch(/"nextNodeId":4002/);
    expect(at('/api/payment/invoices')).toContain('INV-000001');
    // The admin block finds the walkthrough's learner by the publicId it was given (issue 29 §6).
    expect(at('echo "$ID"')).toMatch(/^User[0-9]{6}\n$/);
    expect(at('users?q=$ID')).toMatch(/"items":\[\{"id":1,/);
    expect(at("ask 'how do I add 3/4 and 1/8?'")).toMatch(/^HTTP\/1.1 200[\s\S]*content-type: text\/plain/im);
    // The marketplace walkthrough: the renewal the status read saw is the second paid marketplace invoice.
    const lastInvoices = outputs[commands.findLastIndex((c) => c.line.includes('/api/payment/invoices'))] as string;
    expect(lastInvoices.match(/"provider":"marketplace"/g)).toHaveLength(2);
  });

  it('names only pages that exist in the startup banner', async () => {
    for (const [label, url] of bannerLinks(stack)) {
      const res = await fetch(url);
      expect(res.status, `${label} ${url}`).toBe(200);
    }
  });
});

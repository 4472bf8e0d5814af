import { afterAll, describe, expect, it } from 'vitest';
import { normalizeMarkdown } from '@quire/document/model';
import { normalizeBatchMarkdown, readMarkdownPage } from './parse-tasks.ts';
import { LARGE_TEXT_CHARS, textParser, type ParseSettings } from './text-parser.ts';

const settings: ParseSettings = { threads: 2, memoryMb: 128, timeoutMs: 1_000, inlineBelow: 64 };
const parser = textParser(settings);

/** The event loop's worst delay while `work` runs (a 5 ms timer's lateness). */
async function loopLag<T>(
  work: () => Promise<T>,
): Promise<{ result: PromiseSettledResult<T>; lagMs: number; ms: number }> {
  let lagMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lagMs = Math.max(lagMs, now - last - 5);
    last = now;
  }, 5);
  const started = performance.now();
  const [result] = await Promise.allSettled([work()]);
  clearInterval(timer);
  return { result: result!, lagMs, ms: performance.now() - started };
}

const reasonOf = (r: PromiseSettledResult<unknown>) =>
  r.status === 'rejected' ? (r.reason as { code?: string; message: string }) : undefined;

describe('parse tasks', () => {
  it('reads frontmatter and the leading heading of a page', () => {
    expect(readMarkdownPage('---\ntitle: Hi\n---\n# Heading\n\nBody')).toEqual({
      body: '\nBody',
      meta: { title: 'Hi' },
      heading: 'Heading',
    });
    expect(readMarkdownPage('---\n: [\n---\nx')).toEqual({ error: 'the frontmatter is not valid YAML' });
  });

  it('resolves the references of a batch before normalising', () => {
    const refs = { pages: { intro: 'p1' }, files: { logo: 'f1' } };
    expect(normalizeBatchMarkdown('[a](./intro.md#x "T") ![l](./logo) [b](./other.md)', refs)).toBe(
      normalizeMarkdown('[a](/pages/p1#x "T") ![l](gitbook-file:f1) [b](./other.md)'),
    );
    expect(normalizeBatchMarkdown('[a](./__proto__.md)', refs)).toBe(normalizeMarkdown('[a](./__proto__.md)'));
  });

  it('resolves content-refs of the batch, and never what a code block holds', () => {
    const refs = { pages: { other: 'p2' }, files: {} };
    const markdown =
      '{% content-ref url="./other.md" %}\n[Other](./other.md)\n{% endcontent-ref %}\n\n' +
      '```md\n[x](./other.md)\n```\n\nSee `[y](./other.md)`.\n';
    const out = normalizeBatchMarkdown(markdown, refs);
    expect(out).toContain('{% content-ref url="/pages/p2" %}');
    expect(out).toContain('```md\n[x](./other.md)\n```');
    expect(out).toContain('`[y](./other.md)`');
    expect(out).not.toContain('{% content-ref url="./other.md" %}');
  });
});

describe('a parse session', () => {
  afterAll(() => undefined);

  it('answers on a thread what it answers inline', async () => {
    const markdown = `# Title\n\n${'Some *text*, a [link](https://example.com) and `code`.\n\n- one\n- two\n\n'.repeat(20)}`;
    expect(await parser.session().run({ kind: 'normalize', markdown }, 'f')).toBe(normalizeMarkdown(markdown));
    expect(await parser.session().run({ kind: 'normalize', markdown: '*a*' }, 'f')).toBe(normalizeMarkdown('*a*'));
    const doc = await parser.session().run({ kind: 'toDocument', markdown }, 'f');
    expect(doc).toMatchObject({ object: 'document' });
    expect(await parser.session().run({ kind: 'jsonDocument', document: { nodes: 3 } }, 'f')).toMatchObject({
      error: expect.any(String),
    });
  }, 30_000);

  it('stops a parse past its time with a 400 naming the field, without blocking the event loop', async () => {
    await parser.session().run({ kind: 'normalize', markdown: 'warm '.repeat(100) }, 'f');
    const markdown = `${'['.repeat(60_000)}a${']('.repeat(60_000)}`;
    const { result, lagMs, ms } = await loopLag(() =>
      parser.session().run({ kind: 'normalize', markdown }, 'changes.0.document.markdown'),
    );
    expect(reasonOf(result)).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(
        /^Invalid request: changes\.0\.document\.markdown: too complex to read within 1 s/,
      ),
    });
    expect(ms).toBeLessThan(5_000);
    expect(lagMs).toBeLessThan(500);
    // The pool goes on after a thread was stopped.
    expect(
      await parser.session().run({ kind: 'normalize', markdown: '**after** the stop '.repeat(10) }, 'f'),
    ).toContain('**after**');
  }, 30_000);

  it('shares one budget across the parses of a session and refuses the batch at the first failure', async () => {
    const session = textParser({ ...settings, timeoutMs: 600 }).session();
    const slow = `${'['.repeat(60_000)}a${']('.repeat(60_000)}`;
    const runs = [0, 1, 2, 3].map((i) => session.run({ kind: 'normalize', markdown: slow }, `changes.${i}.document`));
    const started = performance.now();
    const results = await Promise.allSettled(runs);
    expect(performance.now() - started).toBeLessThan(5_000);
    const messages = new Set(results.map((r) => reasonOf(r)?.message));
    expect(messages.size).toBe(1);
    expect([...messages][0]).toMatch(/changes\.\d\.document: too complex to read within 0\.6 s/);
  }, 30_000);

  it('answers a 413 for a parse past the memory limit', async () => {
    // A parsing thread needs about 40 MB of heap for its parsers alone.
    const small = textParser({ threads: 1, memoryMb: 64, timeoutMs: 20_000, inlineBelow: 0 });
    const markdown = '- a\n'.repeat(400_000);
    const r = await Promise.allSettled([
      small.session().run({ kind: 'toDocument', markdown }, 'changes.3.document.markdown'),
    ]);
    expect(reasonOf(r[0]!)).toMatchObject({
      message: expect.stringMatching(/^Too large: changes\.3\.document\.markdown: reading it needs more than 64 MB/),
    });
  }, 60_000);

  it('answers a 413 for every parse past the memory limit, one after another and at once, and reads on', async () => {
    const parser = textParser({ threads: 2, memoryMb: 96, timeoutMs: 20_000, inlineBelow: 0 });
    // Under LARGE_TEXT_CHARS: each starts on an everyday thread (64 MB), runs out of it, then out of the 96 MB one.
    const markdown = '- a\n'.repeat(16_000);
    expect(markdown.length).toBeLessThan(LARGE_TEXT_CHARS);
    const tooLarge = /^Too large: changes\.0\.document\.markdown: reading it needs more than 96 MB/;
    const parse = () => parser.session().run({ kind: 'toDocument', markdown }, 'changes.0.document.markdown');
    for (let i = 0; i < 2; i++)
      await expect(parse()).rejects.toMatchObject({ message: expect.stringMatching(tooLarge) });
    const together = await Promise.allSettled([parse(), parse(), parse()]);
    for (const r of together) expect(reasonOf(r)?.message).toMatch(tooLarge);
    // And the threads still read what fits.
    const fits = await parser.session().run({ kind: 'toDocument', markdown: '# Still here\n' }, 'changes.1');
    expect(JSON.stringify(fits)).toContain('Still here');
  }, 120_000);
});

import type { JSONDocument } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import { documentContent, type PdfContentContext } from './pdf-content.ts';

/** Every run of text of pdfmake content, in order, with the link it carries. */
function runs(content: unknown, out: { text: string; link?: string; dest?: string }[] = []) {
  if (Array.isArray(content)) for (const c of content) runs(c, out);
  else if (typeof content === 'string') out.push({ text: content });
  else if (content && typeof content === 'object') {
    const o = content as { text?: unknown; link?: string; linkToDestination?: string };
    if (typeof o.text === 'string')
      out.push({
        text: o.text,
        ...(o.link ? { link: o.link } : {}),
        ...(o.linkToDestination ? { dest: o.linkToDestination } : {}),
      });
    for (const [key, value] of Object.entries(o))
      if (key !== 'layout' && value && typeof value === 'object') runs(value, out);
  }
  return out;
}
const words = (content: unknown) =>
  runs(content)
    .map((r) => r.text)
    .join(' ')
    .replace(/\s+/g, ' ');

const ctx: PdfContentContext = {
  pageId: 'p1',
  link: (ref) =>
    ref.kind === 'url' ? { url: ref.url } : ref.kind === 'page' ? { destination: `p:${ref.page}` } : null,
  label: (ref) =>
    ref.kind === 'page'
      ? `Page ${ref.page}`
      : ref.kind === 'file'
        ? `${ref.file}.pdf`
        : ref.kind === 'user'
          ? `User ${ref.user}`
          : undefined,
  image: () => undefined,
  headingDestination: () => null,
};
const text = (t: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: t, marks: [] }] });
const paragraph = (t: string) => ({ object: 'block' as const, type: 'paragraph' as const, data: {}, nodes: [text(t)] });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as unknown as JSONDocument;

describe('documentContent: tables by the type of their columns', () => {
  it('prints a grid’s cells by column type: text, number, checkbox, rating, select, users, files, content-ref', () => {
    const table = {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: {
          type: 'grid',
          columns: ['name', 'n', 'done', 'stars', 'tags', 'who', 'files', 'ref'],
          hideHeader: false,
        },
        definition: {
          name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
          n: { id: 'n', title: 'Count', type: 'number' },
          done: { id: 'done', title: 'Done', type: 'checkbox' },
          stars: { id: 'stars', title: 'Stars', type: 'rating', max: 5 },
          tags: {
            id: 'tags',
            title: 'Tags',
            type: 'select',
            multiple: true,
            options: [
              { value: 'a', label: 'Alpha', color: 'red' },
              { value: 'b', label: 'Beta', color: 'blue' },
            ],
          },
          who: { id: 'who', title: 'Who', type: 'users', multiple: true },
          files: { id: 'files', title: 'Files', type: 'files' },
          ref: { id: 'ref', title: 'See', type: 'content-ref' },
        },
        records: {
          r2: {
            orderIndex: 'b',
            values: {
              name: 'f2',
              n: 2,
              done: false,
              stars: 1,
              tags: ['b'],
              who: [],
              files: [],
              ref: { kind: 'url', url: 'https://example.com' },
            },
          },
          r1: {
            orderIndex: 'a',
            values: {
              name: 'f1',
              n: 42,
              done: true,
              stars: 3,
              tags: ['a', 'b'],
              who: ['u1'],
              files: ['f9'],
              ref: { kind: 'page', page: 'p2' },
            },
          },
        },
      },
      fragments: [
        { object: 'fragment', fragment: 'f1', nodes: [paragraph('First')] },
        { object: 'fragment', fragment: 'f2', nodes: [paragraph('Second')] },
      ],
    };
    const content = documentContent(doc(table), ctx);
    expect(words(content)).toBe(
      'Name Count Done Stars Tags Who Files See First 42 ☑ ★★★☆☆ Alpha, Beta User u1 f9.pdf Page p2 Second 2 ☐ ★☆☆☆☆ Beta https://example.com',
    );
    expect(runs(content).filter((r) => r.link || r.dest)).toEqual([
      { text: 'Page p2', dest: 'p:p2' },
      { text: 'https://example.com', link: 'https://example.com' },
    ]);
  });

  it('prints cards one box each: their shown cells, then their target as a link', () => {
    const cards = {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: {
          type: 'cards',
          cardSize: 'medium',
          columns: ['title', 'target', 'cover'],
          targetDefinition: 'target',
          coverDefinition: 'cover',
        },
        definition: {
          title: { id: 'title', title: 'Title', type: 'text', textAlignment: 'left' },
          target: { id: 'target', title: 'Target', type: 'content-ref' },
          cover: { id: 'cover', title: 'Cover', type: 'image' },
        },
        records: {
          a: {
            orderIndex: 'a',
            values: {
              title: 'c1',
              target: { kind: 'url', url: 'https://example.com/one' },
              cover: { kind: 'file', file: 'img' },
            },
          },
          b: { orderIndex: 'b', values: { title: 'c2', target: { kind: 'page', page: 'p3' } } },
        },
      },
      fragments: [
        { object: 'fragment', fragment: 'c1', nodes: [paragraph('Card one')] },
        { object: 'fragment', fragment: 'c2', nodes: [paragraph('Card two')] },
      ],
    };
    const content = documentContent(doc(cards), ctx);
    expect(content).toHaveLength(2);
    expect(words(content[0])).toBe('Card one → https://example.com/one');
    expect(words(content[1])).toBe('Card two → Page p3');
    expect(runs(content).filter((r) => r.link || r.dest)).toEqual([
      { text: 'https://example.com/one', link: 'https://example.com/one' },
      { text: 'Page p3', dest: 'p:p3' },
    ]);
  });
});

describe('documentContent: blocks a PDF cannot run', () => {
  it('names them on a line of their own, never leaving them out', () => {
    const content = documentContent(
      doc(
        {
          object: 'block',
          type: 'openapi-schemas',
          isVoid: true,
          data: { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Pet', 'Owner'] },
        },
        {
          object: 'block',
          type: 'openapi-webhook',
          isVoid: true,
          data: { ref: { kind: 'openapi', spec: 'pets' }, name: 'newPet', method: 'post' },
        },
        {
          object: 'block',
          type: 'swagger',
          isVoid: true,
          data: { ref: { kind: 'url', url: 'https://example.com/api.yaml' }, path: '/pets', method: 'get' },
        },
        {
          object: 'block',
          type: 'integration',
          isVoid: true,
          data: { integration: 'figma', block: 'frame', props: {}, url: 'https://figma.com/x' },
        },
      ),
      ctx,
    );
    expect(content.map(words)).toEqual([
      '[API schemas Pet, Owner of the OpenAPI specification pets]',
      '[API webhook POST newPet of the OpenAPI specification pets]',
      '[API operation GET /pets of https://example.com/api.yaml ]',
      '[Block frame of the integration figma from https://figma.com/x ]',
    ]);
  });
});

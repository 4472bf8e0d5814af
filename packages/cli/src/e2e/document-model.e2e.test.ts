import { describe, expect, it } from 'vitest';
import { changeRequestWith, useCast } from './harness.ts';
import { MARKDOWN_NODE_TYPES, typesOf } from '@quire/document/testing';

// What is checked here is what the page reads back as, not how fast: a loaded test machine may take longer
// than the default budget of a parse (1.5 s) to read a page this full the first time.
const { p, acme } = useCast({}, { env: { QUIRE_PARSE_TIMEOUT_MS: '20000' } });

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * A page using every block of GitBook's markdown, written as GitBook's Git Sync writes it. `other` and `file` are
 * the ids of a page and a file of the space.
 */
const everyBlock = (other: string, file: string) => `---
description: A page using every block.
icon: rocket
---

The page's first paragraph (a first heading 1 would be the page's title).

# Heading one

## Text and marks

A paragraph with **bold**, _italic_, ~~struck~~, \`code\`, <mark style="color:red;">red text</mark>, <mark style="background-color:yellow;">highlighted</mark>, H<sub>2</sub>O, x<sup>2</sup>, <kbd>Ctrl</kbd>, an emoji 🎉, a [link](https://example.com/docs), a [page link](/pages/${other}), a mention of [Other](/pages/${other} "mention"), of [its heading](gitbook-anchor:details?page=${other} "mention"), a [link to a step](#step-one), an icon <i class="fa-rocket">:rocket:</i>, a variable <code class="expression">space.vars.version</code>, a button <a href="https://example.com/start" class="button primary">Start</a>, inline math $$E = mc^2$$ and a footnote.[^1]

### Lists and quotes

* one
* two
  * nested

1. first
2. second

* [x] done
* [ ] open

> A quote.

***

## Blocks

{% hint style="info" %}
An info hint.
{% endhint %}

{% hint style="warning" %}
A warning hint.
{% endhint %}

{% hint style="danger" %}
A danger hint.
{% endhint %}

{% hint style="success" %}
A success hint.
{% endhint %}

{% code title="hello.js" overflow="wrap" lineNumbers="true" %}
\`\`\`javascript
console.log("hello");
\`\`\`
{% endcode %}

{% tabs %}
{% tab title="First" %}
First tab.
{% endtab %}

{% tab title="Second" %}
Second tab.
{% endtab %}
{% endtabs %}

<details>

<summary>Click to expand</summary>

Hidden content.

</details>

{% stepper %}
{% step %}
### Step one

Do this.
{% endstep %}

{% step %}
### Step two

Then that.
{% endstep %}
{% endstepper %}

{% columns %}
{% column %}
Left column.
{% endcolumn %}

{% column %}
Right column.
{% endcolumn %}
{% endcolumns %}

<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Card one</strong></td><td><a href="https://example.com/one">https://example.com/one</a></td></tr><tr><td><strong>Card two</strong></td><td><a href="https://example.com/two">https://example.com/two</a></td></tr></tbody></table>

| Name | Count |
| - | - |
| a | 1 |
| b | 2 |

{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}

{% content-ref url="/pages/${other}" %}
[/pages/${other}](/pages/${other})
{% endcontent-ref %}

{% file src="gitbook-file:${file}" %}
The handbook.
{% endfile %}

<figure><img src="gitbook-file:${file}" alt="A dot"><figcaption><p>The caption</p></figcaption></figure>

$$
f(x) = x^2
$$

{% include "reusable-content-id" %}

{% if visitor.claims.unsigned.beta %}
Only for beta readers.
{% endif %}

{% openapi-operation spec="petstore" path="/pets" method="get" %}
[OpenAPI petstore](https://petstore3.swagger.io/api/v3/openapi.json)
{% endopenapi-operation %}

[^1]: The footnote text.
`;

/**
 * The stored form of that page: the same markdown but for what Quire writes its own way — the front matter is
 * the page's own fields (its description, read back as such, not in the markdown), a mention is written
 * with its target as its text (GitBook's mention has no text of its own), an OpenAPI block's spec link as the
 * spec's reference (its source URL is not in GitBook's document).
 */
const stored = (written: string, other: string) =>
  written
    .replace(/^---\n[\s\S]*?\n---\n\n/, '')
    .replace(`[Other](/pages/${other} "mention")`, `[/pages/${other}](/pages/${other} "mention")`)
    .replace(
      `[its heading](gitbook-anchor:details?page=${other} "mention")`,
      `[gitbook-anchor:details?page=${other}](gitbook-anchor:details?page=${other} "mention")`,
    )
    .replace(
      '[OpenAPI petstore](https://petstore3.swagger.io/api/v3/openapi.json)',
      '[OpenAPI petstore](gitbook-openapi:petstore)',
    );

/** What GitBook's markdown never reads back as: its own syntax escaped into visible text. */
const ESCAPED = [
  '\\{%',
  '\\<details',
  '\\<summary',
  '\\[^1]',
  '\\$$',
  '\\<mark',
  '\\<kbd',
  '\\<sub',
  '\\<sup',
  '\\<figure',
  '\\<table',
  '\\***',
];

describe('GitBook’s document model through the official client', () => {
  it('reads back every block of GitBook’s markdown as the same markdown and as the equivalent document, both ways', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Every block' })).data;
    const seed = await changeRequestWith(
      api,
      space.id,
      [
        { operation: 'insert_page', title: 'Other', document: { markdown: '# Other\n\n## Details\n\nText.\n' } },
        { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG_1x1 }] },
      ],
      'Seed',
    );
    expect((await api.spaces.mergeChangeRequest(space.id, seed.id)).data.result).toBe('merge');
    const other = (await api.spaces.listPages(space.id)).data.pages[0]!;
    const file = (await api.spaces.listFiles(space.id)).data.items[0]!;
    const markdown = everyBlock(other.id, file.id);

    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Every block' })).data;
    const written = await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'insert_page', title: 'Every block', document: { markdown } }],
    } as never);
    expect(written.status).toBe(200);
    expect((await api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    const page = (await api.spaces.listPages(space.id)).data.pages.find((pg) => pg.title === 'Every block')!;
    expect(page).toMatchObject({ description: 'A page using every block.' });

    // The same markdown, nothing escaped.
    const read = (
      (await api.spaces.getPageById(space.id, page.id, { format: 'markdown' })).data as { markdown: string }
    ).markdown;
    for (const escaped of ESCAPED) expect(read, escaped).not.toContain(escaped);
    expect(read).toBe(stored(markdown, other.id));

    // The equivalent GitBook document.
    const document = (
      (await api.spaces.getPageById(space.id, page.id, { format: 'document' })).data as { document: unknown }
    ).document;
    expect([...typesOf(document)]).toEqual(expect.arrayContaining([...MARKDOWN_NODE_TYPES]));

    // Mentions, content-refs, buttons, embeds, file blocks and images are links; the file's backlinks find the page.
    const links = await p.get(acme.token, `/spaces/${space.id}/content/page/${page.id}/links`);
    expect(links.status).toBe(200);
    const targets = (links.body.items as { status: string; targetReference: Record<string, string> }[]).map((l) => [
      l.targetReference.kind,
      [l.targetReference.page ?? l.targetReference.file ?? l.targetReference.url, l.targetReference.anchor]
        .filter(Boolean)
        .join('#'),
      l.status,
    ]);
    expect(targets).toEqual(
      expect.arrayContaining([
        ['page', other.id, 'ok'],
        ['anchor', `${other.id}#details`, 'ok'],
        ['anchor', `${page.id}#step-one`, 'ok'],
        ['url', 'https://example.com/start', 'ok'],
        ['url', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'ok'],
        ['url', 'https://example.com/one', 'ok'],
        ['file', file.id, 'ok'],
      ]),
    );
    const backlinks = await p.get(acme.token, `/spaces/${space.id}/content/files/${file.id}/backlinks`);
    expect(backlinks.body.items).toEqual([expect.objectContaining({ kind: 'page', page: page.id })]);

    // The document written back reads as the same markdown.
    const cr2 = await changeRequestWith(
      api,
      space.id,
      [{ operation: 'update_page', page: page.id, document: { document } }],
      'As a document',
    );
    const again = (
      (await api.spaces.getPageInChangeRequestById(space.id, cr2.id, page.id, { format: 'markdown' })).data as {
        markdown: string;
      }
    ).markdown;
    expect(again).toBe(stored(markdown, other.id));
  });
});

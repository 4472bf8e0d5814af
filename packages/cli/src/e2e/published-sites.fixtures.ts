import type { GitBookAPI } from '@gitbook/api';
import { png } from '@quire/kit/testing';
import { mergeChanges } from './harness.ts';

/** A 320×160 picture: a blue band over a grey one. */
export const DIAGRAM = png(320, 160, (_x, y) => (y < 80 ? [40, 90, 200] : [220, 220, 225])).toString('base64');

/** A page written into a space: its title, markdown, and sub-pages (by `ref`). */
export interface PageSpec {
  ref: string;
  title: string;
  markdown: string;
  into?: string;
  description?: string;
}

/** Writes pages (and a picture, `gitbook-file:` refs in the markdown name it `diagram.png`) through a change request, merged. */
export async function writePages(
  api: GitBookAPI,
  spaceId: string,
  pages: PageSpec[],
  withImage = false,
): Promise<{ fileId?: string }> {
  const cr = (await api.spaces.createChangeRequest(spaceId, { subject: 'Write the docs' })).data;
  let fileId: string | undefined;
  if (withImage) {
    await api.spaces.updateChangeRequestContent(spaceId, cr.id, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'diagram.png', contentType: 'image/png', base64: DIAGRAM }] },
      ],
    } as never);
    fileId = (await api.spaces.listFilesInChangeRequestById(spaceId, cr.id)).data.items[0]!.id;
  }
  const changes = pages.map((pg) => ({
    operation: 'insert_page',
    ref: pg.ref,
    title: pg.title,
    ...(pg.into ? { into: pg.into } : {}),
    ...(pg.description ? { description: pg.description } : {}),
    document: {
      markdown: fileId ? pg.markdown.replaceAll('gitbook-file:diagram', `gitbook-file:${fileId}`) : pg.markdown,
    },
  }));
  await api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes } as never);
  await api.spaces.mergeChangeRequest(spaceId, cr.id);
  return fileId ? { fileId } : {};
}

/** A new space of the organization holding one page. */
export async function spaceWithPage(api: GitBookAPI, org: string, title: string, page: Omit<PageSpec, 'ref'>) {
  const space = (await api.orgs.createSpace(org, { title })).data;
  await writePages(api, space.id, [{ ref: 'page', ...page }]);
  return space;
}

/**
 * A space "Handbook" of the organization with a page "Plans" (`plans`, markdown) and a hidden page "Internal"
 * (`internal`), merged: the space's id and the two pages as listed.
 */
export async function plansHandbook(api: GitBookAPI, org: string, plans: string, internal: string) {
  const space = (await api.orgs.createSpace(org, { title: 'Handbook' })).data.id;
  await mergeChanges(
    api,
    space,
    [
      { operation: 'insert_page', title: 'Plans', document: { markdown: plans } },
      { operation: 'insert_page', title: 'Internal', hidden: true, document: { markdown: internal } },
    ],
    'Write',
  );
  const pages = (await api.spaces.listPages(space)).data.pages;
  const page = (title: string) => pages.find((pg) => pg.title === title)! as { id: string; documentId?: string };
  return { space, plans: page('Plans'), internal: page('Internal') };
}

/** The guide of the demo site: nested pages, code, a hint, tabs, a table, an image, math and links between pages. */
export const GUIDE: PageSpec[] = [
  {
    ref: 'intro',
    title: 'Introduction',
    description: 'What Acme Cloud is and how these docs are organised.',
    markdown: [
      'Acme Cloud runs your jobs. Start with [Installation](installation.md), then read the [configuration reference](getting-started/configuration.md#options).',
      '',
      '{% hint style="info" %}',
      'Every command below works on Linux, macOS and Windows.',
      '{% endhint %}',
      '',
      '## Quick start',
      '',
      '```ts title="hello.ts"',
      "import { connect } from '@acme/cloud';",
      "const client = await connect({ region: 'eu-west' });",
      '```',
      '',
      '{% tabs %}',
      '{% tab title="npm" %}',
      '```sh',
      'npm install @acme/cloud',
      '```',
      '{% endtab %}',
      '{% tab title="yarn" %}',
      '```sh',
      'yarn add @acme/cloud',
      '```',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '## Regions',
      '',
      '| Region | Latency |',
      '| --- | ---: |',
      '| eu-west | 12 ms |',
      '| us-east | 48 ms |',
      '',
      '![Architecture diagram](gitbook-file:diagram "How a job flows")',
      '',
      '- [x] Create an account',
      '- [ ] Deploy a job',
      '',
    ].join('\n'),
  },
  {
    ref: 'started',
    title: 'Getting started',
    markdown: 'The first steps.\n\n## Before you begin\n\nYou need an account.\n',
  },
  {
    ref: 'install',
    into: 'started',
    title: 'Installation',
    markdown:
      'Install the CLI:\n\n```sh\ncurl -fsSL https://acme.test/install | sh\n```\n\nThen go on with [Configuration](configuration.md).\n',
  },
  {
    ref: 'config',
    into: 'started',
    title: 'Configuration',
    markdown:
      'Settings live in `acme.toml`.\n\n## Options\n\nEach option has a default.\n\n### Timeouts\n\nJobs stop after 60 seconds.\n',
  },
];

export const REFERENCE: PageSpec[] = [
  {
    ref: 'api',
    title: 'API overview',
    markdown: 'The REST API of Acme Cloud.\n\n## Authentication\n\nSend a bearer token.\n',
  },
  { ref: 'jobs', title: 'Jobs endpoint', markdown: 'Create, list and cancel jobs.\n' },
];

/** A site with two sections (Guide, API Reference), published; resolves to the site and its spaces. */
export async function publishDemoSite(api: GitBookAPI, org: string, title = 'Acme Cloud Docs') {
  const guide = (await api.orgs.createSpace(org, { title: 'Guide' })).data;
  const reference = (await api.orgs.createSpace(org, { title: 'API Reference' })).data;
  await writePages(api, guide.id, GUIDE, true);
  await writePages(api, reference.id, REFERENCE);
  const site = (await api.orgs.createSite(org, { title } as never)).data;
  await api.orgs.addSectionToSite(org, site.id, { spaceId: guide.id, title: 'Guide' } as never);
  await api.orgs.addSectionToSite(org, site.id, { spaceId: reference.id, title: 'API Reference' } as never);
  const published = (await api.orgs.publishSite(org, site.id)).data as {
    urls: { published?: string };
    basename: string;
    id: string;
  };
  return { site: published, guide, reference };
}

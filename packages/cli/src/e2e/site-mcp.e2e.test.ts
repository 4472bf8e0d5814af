import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { useCast } from './harness.ts';
import { spaceWithPage } from './published-sites.fixtures.ts';

// Issue 42: every published site serves an MCP server at `<site>/~gitbook/mcp` (docs/answers.md), honouring its
// audience as its pages do. Driven with the SDK's own client over Streamable HTTP.

const { p, acme } = useCast({});

/** A site of this visibility showing a new space holding one page, published. */
async function publishedSite(title: string, visibility: string, page: { title: string; markdown: string }) {
  const api = p.client(acme.token);
  const org = acme.organization.id;
  const { id } = await spaceWithPage(api, org, `${title} space`, page);
  const site = (await api.orgs.createSite(org, { title, visibility, spaces: [id] } as never)).data;
  const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } };
  return { id: site.id, url: published.urls.published.replace('http://quire.test', p.url) };
}

/** An MCP client connected to `mcpUrl` (its connection fails when the server answers 404). */
async function connect(mcpUrl: string): Promise<Client> {
  const client = new Client({ name: 'quire-test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  } catch (err) {
    await client.close();
    throw err;
  }
  return client;
}

const textOf = (r: Awaited<ReturnType<Client['callTool']>>) =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

describe('a published site’s MCP server', () => {
  it('a public site: lists its tools and pages, reads a page, searches', async () => {
    const site = await publishedSite('Wombat guide', 'public', {
      title: 'Burrows',
      markdown: 'Wombats dig burrows with their claws.\n\n## Doors\n\nA burrow has one door.',
    });
    const client = await connect(`${site.url}/~gitbook/mcp`);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual(['list_pages', 'read_page', 'search']);

      const list = textOf(await client.callTool({ name: 'list_pages', arguments: {} }));
      expect(list).toMatch(/^# Wombat guide/);
      const link = /- \[Burrows\]\((http[^)]+\.md)\)/.exec(list);
      expect(link).not.toBeNull();

      const page = textOf(await client.callTool({ name: 'read_page', arguments: { url: link![1]! } }));
      expect(page).toContain('Wombats dig burrows with their claws.');
      expect(page).toContain('## Doors');

      const missing = await client.callTool({ name: 'read_page', arguments: { url: 'no-such-page' } });
      expect(missing.isError).toBe(true);

      let found = '';
      for (let i = 0; i < 50 && !found.includes('Burrows'); i++) {
        found = textOf(await client.callTool({ name: 'search', arguments: { query: 'claws' } }));
        if (!found.includes('Burrows')) await new Promise((r) => setTimeout(r, 200));
      }
      expect(found).toMatch(/^## Burrows\nhttp\S+\n- .*claws/);
    } finally {
      await client.close();
    }
  });

  it('a share-link site: nothing without its key (404), its pages with it', async () => {
    const site = await publishedSite('Partner notes', 'share-link', {
      title: 'Margins',
      markdown: 'Partner margins are secret.',
    });
    const bare = await fetch(`${site.url}/~gitbook/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(bare.status).toBe(404);
    expect(await bare.text()).not.toMatch(/Margins|Partner/);
    await expect(connect(`${site.url}/~gitbook/mcp`)).rejects.toThrow();
    await expect(connect(`${site.url}/~gitbook/mcp?share=not-a-key`)).rejects.toThrow();

    const api = p.client(acme.token);
    const link = (await api.orgs.createSiteShareLink(acme.organization.id, site.id, { name: 'Partners' })).data as {
      urls: { published: string };
    };
    const key = new URL(link.urls.published).searchParams.get('share');
    const client = await connect(`${site.url}/~gitbook/mcp?share=${key}`);
    try {
      const list = textOf(await client.callTool({ name: 'list_pages', arguments: {} }));
      expect(list).toMatch(/- \[Margins\]\(http/);
    } finally {
      await client.close();
    }
  });

  it('a site kept out of agents’ context (`agentsContext: excluded`): no MCP server', async () => {
    const site = await publishedSite('Private notes', 'public', { title: 'Notes', markdown: 'Not for agents.' });
    // `agentsContext` is in api.md, not in the official client's types: raw HTTP.
    const patched = await fetch(`${p.url}/v1/orgs/${acme.organization.id}/sites/${site.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentsContext: 'excluded' }),
    });
    expect(patched.status).toBe(200);
    await expect(connect(`${site.url}/~gitbook/mcp`)).rejects.toThrow(/404/);
  });

  it('stateless: GET (a server stream) and DELETE (a session) answer 405', async () => {
    const site = await publishedSite('Stateless', 'public', { title: 'One', markdown: 'One page.' });
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${site.url}/~gitbook/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST']);
      await res.text();
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { eventuallyPasses } from '@quire/kit/testing';
import { MemberRole } from '@gitbook/api';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import type * as Y from 'yjs';
import { changeRequestWith, useCast, type Platform } from './harness.ts';

/** Live collaboration through the gateway (`/v1/collab`, issue 41) with real Hocuspocus providers. */

/** A WebSocket carrying an API token, as a Node client (not a browser) opens one. */
const socketWith = (token: string | null) =>
  class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    }
  };

const opened: HocuspocusProvider[] = [];
afterEach(() => {
  for (const p of opened.splice(0)) close(p);
});
const close = (p: HocuspocusProvider) => {
  p.destroy();
  p.configuration.websocketProvider.destroy();
};

function open(p: Platform, token: string, name: string) {
  const state = { denied: '', scope: '', closes: 0 };
  const provider = new HocuspocusProvider({
    websocketProvider: new HocuspocusProviderWebsocket({
      url: `${p.url.replace('http', 'ws')}/v1/collab`,
      WebSocketPolyfill: socketWith(token),
    }),
    name,
    token: 'unused',
    onAuthenticationFailed: ({ reason }) => void (state.denied = reason),
    onAuthenticated: ({ scope }) => void (state.scope = scope),
    onClose: () => void state.closes++,
  });
  provider.attach();
  opened.push(provider);
  return { provider, state, text: () => textOf(provider.document) };
}
const textOf = (doc: Y.Doc) => doc.getXmlFragment('default').toString();
/** Types at the start of the first paragraph's text (the editor's paragraph: an element holding a Y.XmlText). */
const typeInto = (doc: Y.Doc, words: string) => {
  const paragraph = doc.getXmlFragment('default').get(0) as Y.XmlElement;
  (paragraph.get(0) as Y.XmlText).insert(0, words);
};

/** What a handshake without usable credentials gets: the HTTP status of the refusal. */
const handshakeStatus = (p: Platform, token: string | null) =>
  new Promise<number>((resolve) => {
    const ws = new (socketWith(token))(`${p.url.replace('http', 'ws')}/v1/collab`);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => {});
  });

for (const transport of ['in-process', 'http'] as const) {
  describe(`live collaboration through the gateway (${transport})`, () => {
    const { p, acme, editor, reader, other } = useCast(
      { editor: ['ed@acme.io', 'edit', 'Ed'], reader: ['rita@acme.io', 'read'] },
      { transport },
    );

    async function pageInChangeRequest(markdown: string) {
      const api = p.client(acme.token);
      const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Live' })).data;
      const cr = await changeRequestWith(api, space.id, [
        { operation: 'insert_page', title: 'Guide', document: { markdown } },
      ]);
      const base = `/spaces/${space.id}/change-requests/${cr.id}/content`;
      const pages = (await p.get(acme.token, `${base}/pages`)).body.pages;
      const pageId = pages[0]!.id;
      const markdownNow = async () =>
        (await p.get(acme.token, `${base}/page/${pageId}?format=markdown`)).body.markdown as string;
      return { spaceId: space.id, name: `spaces/${space.id}/change-requests/${cr.id}/page/${pageId}`, markdownNow };
    }

    it('two writers converge, a reader is read-only, the change request gets the edit when they leave', async () => {
      const { name, markdownNow } = await pageInChangeRequest('Shared paragraph\n');
      const ann = open(p, acme.token, name);
      const ed = open(p, editor.token, name);
      const rita = open(p, reader.token, name);
      await eventuallyPasses(() => expect(ann.text()).toContain('Shared paragraph'));
      await eventuallyPasses(() => expect(ed.text()).toContain('Shared paragraph'));
      await eventuallyPasses(() => expect(rita.state.scope).toBe('readonly'));
      expect(ed.state.scope).toBe('read-write');

      const started = performance.now();
      typeInto(ann.provider.document, 'Ann ');
      typeInto(ed.provider.document, 'Ed ');
      await eventuallyPasses(() => {
        expect(ann.text()).toBe(ed.text());
        expect(ann.text()).toMatch(/(Ann Ed|Ed Ann) Shared paragraph/);
        expect(rita.text()).toBe(ann.text());
      });
      console.info(
        `collab: two writers' edits merged on every client in ${Math.round(performance.now() - started)} ms`,
      );
      typeInto(rita.provider.document, 'Rita ');
      await new Promise((r) => setTimeout(r, 300));
      expect(ann.text()).not.toContain('Rita');

      for (const c of [ann, ed, rita]) close(c.provider);
      await eventuallyPasses(
        async () => expect(await markdownNow()).toMatch(/(Ann Ed|Ed Ann) Shared paragraph/),
        15_000,
      );
    });

    it('refuses a handshake without a member (401) and another organization (permission denied)', async () => {
      expect(await handshakeStatus(p, null)).toBe(401);
      expect(await handshakeStatus(p, 'not-a-token')).toBe(401);
      const { name } = await pageInChangeRequest('Private\n');
      const olga = open(p, other.token, name);
      await eventuallyPasses(() => expect(olga.state.denied).toBe('permission-denied'));
      expect(olga.text()).toBe('');
    });

    if (transport === 'in-process')
      it('a reader given `edit` on the space is reconnected with write access', async () => {
        const { spaceId, name } = await pageInChangeRequest('Read, then write\n');
        const rita = open(p, reader.token, name);
        await eventuallyPasses(() => expect(rita.state.scope).toBe('readonly'));
        await p.client(acme.token).spaces.inviteToSpace(spaceId, { role: MemberRole.Edit, users: [reader.user.id] });
        await eventuallyPasses(() => expect(rita.state.scope).toBe('read-write'), 15_000);
        expect(rita.state.closes).toBeGreaterThan(0);
        typeInto(rita.provider.document, 'Rita ');
        await eventuallyPasses(() => expect(rita.provider.unsyncedChanges).toBe(0));
      });

    if (transport === 'in-process')
      it('disconnects a member removed from the organization', async () => {
        const { name } = await pageInChangeRequest('Soon revoked\n');
        const ed = open(p, editor.token, name);
        await eventuallyPasses(() => expect(ed.text()).toContain('Soon revoked'));
        await p.client(acme.token).orgs.removeMemberFromOrganizationById(acme.organization.id, editor.user.id);
        await eventuallyPasses(() => expect(ed.state.closes).toBeGreaterThan(0));
        // The provider reconnects on its own, as a member of no organization owning the space: refused.
        await eventuallyPasses(() => expect(ed.state.denied).toBe('permission-denied'), 15_000);
      });
  });
}

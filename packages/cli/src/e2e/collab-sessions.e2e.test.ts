import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventuallyPasses } from '@quire/kit/testing';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import { bootstrap, changeRequestWith, type Platform, startPlatform } from './harness.ts';
import { type Mailbox, sessionCookie, startMailbox } from './mailbox.ts';

/**
 * A live-editing socket opened by the app with a sign-in session cookie is closed when that session ends (signed out
 * from another browser, the account page or the API), as every request of the session is refused from then on; the
 * member's other sessions keep their sockets.
 */
const PUBLIC_URL = 'http://quire.test';

let p: Platform;
let mailbox: Mailbox;
let token: string;
let organizationId: string;
beforeAll(async () => {
  mailbox = await startMailbox(PUBLIC_URL);
  p = await startPlatform({ env: { QUIRE_PUBLIC_URL: PUBLIC_URL, QUIRE_SMTP_URL: mailbox.url } });
  const ann = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
  token = ann.token;
  organizationId = ann.organization.id;
}, 120_000);
afterAll(async () => {
  await p?.stop();
  await mailbox?.close();
});

/** The page as the app's editor opens it: a Hocuspocus provider whose socket carries the session cookie, from a page
 * of the instance (its `Origin`); the close codes it saw. */
function editorWith(cookie: string, name: string) {
  const state = { scope: '', closes: [] as number[] };
  const provider = new HocuspocusProvider({
    websocketProvider: new HocuspocusProviderWebsocket({
      url: `${p.url.replace('http', 'ws')}/v1/collab`,
      WebSocketPolyfill: class extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: { cookie, origin: PUBLIC_URL } });
        }
      },
    }),
    name,
    token: 'unused',
    onAuthenticated: ({ scope }) => void (state.scope = scope),
    onClose: ({ event }) => void state.closes.push(event.code),
  });
  provider.attach();
  const close = () => {
    provider.destroy();
    provider.configuration.websocketProvider.destroy();
  };
  return { provider, state, close };
}

describe('live editing and sign-in sessions', () => {
  it("closes the sockets of a session that ends, not those of the member's other session", async () => {
    const api = p.client(token);
    const space = (await api.orgs.createSpace(organizationId, { title: 'Live' })).data;
    const cr = await changeRequestWith(api, space.id, [
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Hi\n' } },
    ]);
    const pages = (await p.get(token, `/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).body.pages;
    const name = `spaces/${space.id}/change-requests/${cr.id}/page/${pages[0]!.id}`;

    const laptop = await sessionCookie(p.url, mailbox, 'ann@acme.io');
    const phone = await sessionCookie(p.url, mailbox, 'ann@acme.io');
    const onLaptop = editorWith(laptop, name);
    const onPhone = editorWith(phone, name);
    try {
      await eventuallyPasses(() =>
        expect([onLaptop.state.scope, onPhone.state.scope]).toEqual(['read-write', 'read-write']),
      );

      const listed = await fetch(`${p.url}/v1/user/sessions`, { headers: { cookie: laptop } });
      const phoneId = ((await listed.json()) as { items: { id: string; current: boolean }[] }).items.find(
        (s) => !s.current,
      )!.id;
      const revoked = await fetch(`${p.url}/v1/user/sessions/${phoneId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(revoked.status).toBe(204);

      await eventuallyPasses(() => expect(onPhone.state.closes[0]).toBe(4401), 15_000);
      // The event that closed the phone's socket has been handled: the laptop's is still open.
      expect(onLaptop.state.closes).toEqual([]);
      // The phone's provider reconnects on its own: the ended session is refused, so it never gets the page again.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(onPhone.provider.isAuthenticated && onPhone.state.closes.length === 1).toBe(false);
      expect(onLaptop.state.closes).toEqual([]);
    } finally {
      onLaptop.close();
      onPhone.close();
    }
  });
});

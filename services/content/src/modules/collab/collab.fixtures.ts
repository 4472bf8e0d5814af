import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import type * as Y from 'yjs';
import { ops, type Actor, type Role } from '@quire/contracts';
import { ACTOR_HEADER, ActorSigner } from '@quire/kit';
import { buildSpace, orgAdminDirectoryStub, TEST_SECRET, type TestService } from '@quire/kit/testing';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { collabDocumentName } from './collab.loader.ts';
import { COLLAB_PATH } from './collab-server.ts';
import { COLLAB_FIELD } from './editor-json.ts';

/** Test helpers of the live documents: members, a page to edit, editors (Hocuspocus providers) and their text. */

/** org-admin's answers for `t`, stubbed: these users (by id) are members of `org` with these roles. */
export function stubMembers(t: TestService, org: string, members: Record<string, Role>): void {
  t.svc.deps.peers.use(
    'org-admin',
    orgAdminDirectoryStub({
      inOrganization: (o) => o === org,
      members: new Map(Object.entries(members)),
      teams: new Set(),
    }),
  );
}

/** A WebSocket class as the gateway opens it to content: the signed actor `header` in its handshake (none: no actor). */
export const socketWithActor = (header: string | undefined) =>
  class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, header ? { headers: { [ACTOR_HEADER]: header } } : {});
    }
  };

/** The URL of `t`'s live documents. */
export const collabUrl = (t: TestService) => `${t.url.replace('http', 'ws')}${COLLAB_PATH}`;

/**
 * An editor of document `name` on `t`, connecting with the signed actor `header`: its provider, what the server said
 * of its access (`denied`: the reason of a refusal; `readOnly`), and its text.
 */
export function openEditor(t: TestService, header: string | undefined, name: string) {
  const ws = new HocuspocusProviderWebsocket({ url: collabUrl(t), WebSocketPolyfill: socketWithActor(header) });
  const events = { denied: '' as string, readOnly: false as boolean | undefined };
  const provider = new HocuspocusProvider({
    websocketProvider: ws,
    name,
    token: 'unused',
    onAuthenticationFailed: ({ reason }) => void (events.denied = reason),
    onAuthenticated: ({ scope }) => void (events.readOnly = scope === 'readonly'),
  });
  provider.attach();
  return { provider, events, text: () => textOf(provider.document) };
}

const signer = new ActorSigner(TEST_SECRET);

/** The signed actor header the gateway sends content for `actor`. */
export const headerOf = async (actor: Actor) => (await signer.sign(actor)).header;

/** An editor of document `name` on `t`, connecting as `actor`; its provider joins `opened` (closed after the tests). */
export async function openEditorAs(t: TestService, actor: Actor, name: string, opened: HocuspocusProvider[]) {
  const editor = openEditor(t, await headerOf(actor), name);
  opened.push(editor.provider);
  return editor;
}

/** Closes an editor's provider and its socket. */
export const closeEditor = (p: HocuspocusProvider) => {
  p.destroy();
  p.configuration.websocketProvider.destroy();
};

/** A live document's text (its XML, marks and all). */
export const textOf = (doc: Y.Doc) => doc.getXmlFragment(COLLAB_FIELD).toString();
/** Types `words` at the start of the document's first paragraph. */
export const typeInto = (doc: Y.Doc, words: string) => {
  const paragraph = doc.getXmlFragment(COLLAB_FIELD).get(0) as Y.XmlElement;
  (paragraph.get(0) as Y.XmlText).insert(0, words);
};

/**
 * A new space of `org` with a change request (by `as`, a user) adding a page "Guide" of `markdown`, on the service
 * `at` answers (asked at each call: a test may restart it): the page's ids, its live document's name, and a reader of
 * its markdown as the change request holds it now.
 */
export async function pageOfChangeRequest(at: () => TestService, org: string, as: Actor, markdown: string) {
  const space = await buildSpace(at(), { org, as });
  const userId = as.kind === 'user' ? as.userId : 'system';
  const cr = await editContent(
    at(),
    space.id,
    undefined,
    [{ operation: 'insert_page', title: 'Guide', document: { markdown } }],
    userId,
  );
  const pages = await at().call(ops.listPagesInChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, as);
  const ids = { spaceId: space.id, changeRequestId: cr.id, pageId: pages.pages[0]!.id };
  const markdownNow = async () =>
    ((await at().call(ops.getPageInChangeRequestById, { ...ids, format: 'markdown' }, as)) as { markdown?: string })
      .markdown ?? '';
  return { ids, name: collabDocumentName(ids), markdownNow };
}

/** Writes the page `ids` names (in its change request) through the API, as `as`: its document becomes `markdown`. */
export const writePageThroughApi = (
  t: TestService,
  ids: { spaceId: string; changeRequestId: string; pageId: string },
  markdown: string,
  as: Actor,
) =>
  t.call(
    ops.updateChangeRequestContent,
    {
      spaceId: ids.spaceId,
      changeRequestId: ids.changeRequestId,
      changes: [{ operation: 'update_page', page: ids.pageId, document: { markdown } }],
    },
    as,
  );

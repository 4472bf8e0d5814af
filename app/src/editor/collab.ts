// Live collaboration of the page editor (issue 41): the TipTap extensions binding the editor to a shared Y.Doc, and
// the Hocuspocus provider syncing it with the content service through the gateway's `/v1/collab` WebSocket. The
// browser's session cookie authenticates the socket (same origin); readers get a read-only document.
//
// Wiring (createEditor in create.ts): pass `session.extensions`, and leave the schema's UndoRedo out: the
// Collaboration extension brings Y.js' own undo manager (per user), and TipTap refuses both together. The editor
// takes its content from the Y.Doc (no `content` option), and the page is saved by the server (no autosave).
//
// Offline: the Y.Doc is also kept in this browser's IndexedDB (y-indexeddb, one database per member and page), so
// what a writer types while the socket is down survives a reload or a closed tab, and the provider sends it when it
// connects again (Y.js merges it with what the others wrote meanwhile). The copy is dropped when the page is left
// with everything acknowledged, and when the server refuses the document.
import { HocuspocusProvider, HocuspocusProviderWebsocket, WebSocketStatus } from '@hocuspocus/provider';
import type { AnyExtension } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import type { EditorState, Plugin } from '@tiptap/pm/state';
import { yCursorPluginKey } from '@tiptap/y-tiptap';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';

/** The gateway's live collaboration endpoint. */
export const COLLAB_PATH = '/v1/collab';
/** The Y.XmlFragment the server seeds and reads (`services/content/src/modules/collab/editor-json.ts`). */
export const COLLAB_FIELD = 'default';

/** The page of a change request edited together. */
export interface CollabTarget {
  spaceId: string;
  changeRequestId: string;
  pageId: string;
}

/** Who the other writers see at this writer's caret. */
export interface CollabUser {
  id: string;
  name: string;
}

/** The server's name of a page's live document (the change request by its id, never its number). */
export const collabDocumentName = (t: CollabTarget): string =>
  `spaces/${t.spaceId}/change-requests/${t.changeRequestId}/page/${t.pageId}`;

/** `ws(s)://<this origin>/v1/collab`. */
export function collabUrl(origin: string = window.location.origin): string {
  return `${origin.replace(/^http/, 'ws')}${COLLAB_PATH}`;
}

/** Caret colors: dark enough for white label text (WCAG AA at the label's size), one per user, stable. */
export const CARET_COLORS = ['#1f6feb', '#b35900', '#1a7f37', '#a40e26', '#6e40c9', '#0b7285', '#9a6700', '#bf3989'];

export function colorFor(userId: string): string {
  let h = 0;
  for (const ch of userId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return CARET_COLORS[h % CARET_COLORS.length]!;
}

/**
 * This writer's caret is sent to the others once the selection has been still for CARET_DELAY ms, and at least every
 * CARET_MAX_WAIT ms while it moves (typing). Sent on every keystroke, it cost a frame in a 2,000-block page: y-prosemirror
 * turns the caret into Y.js positions by walking the document up to it, and the awareness change it makes is
 * dispatched as a second editor transaction, whose plugins walk the document again (docs/app.md, Figures).
 */
export const CARET_DELAY = 150;
export const CARET_MAX_WAIT = 1000;

/** The caret plugin of y-prosemirror, its view's updates (each computing and sending the caret) deferred. */
function deferCaretUpdates(plugin: Plugin): Plugin {
  const make = plugin.spec.view;
  if (!make) return plugin;
  plugin.spec.view = (view) => {
    const inner = make(view);
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** The state before the first of the deferred updates, and when that update came. */
    let since: { state: EditorState; at: number } | undefined;
    const run = () => {
      const before = since!.state;
      since = undefined;
      timer = undefined;
      if (!view.isDestroyed) inner.update?.(view, before);
    };
    return {
      update: (_view, prevState) => {
        since ??= { state: prevState, at: performance.now() };
        clearTimeout(timer);
        timer = setTimeout(run, Math.max(0, Math.min(CARET_DELAY, since.at + CARET_MAX_WAIT - performance.now())));
      },
      destroy: () => {
        clearTimeout(timer);
        inner.destroy?.();
      },
    };
  };
  return plugin;
}

/** Others' carets and names (CollaborationCaret), this writer's own sent as `deferCaretUpdates` says. */
const DeferredCaret = CollaborationCaret.extend({
  addProseMirrorPlugins() {
    return (this.parent?.() ?? []).map((p) => (p.spec.key === yCursorPluginKey ? deferCaretUpdates(p) : p));
  },
});

export type CollabStatus = 'connecting' | 'connected' | 'disconnected';

export interface CollabOptions {
  /** Defaults to this page's origin. */
  url?: string;
  /** The connection's state changed (show "offline"/"reconnecting"). */
  onStatus?: (status: CollabStatus) => void;
  /** The server told whether this user may write (`false`: read-only, set the editor not editable). */
  onAccess?: (writable: boolean) => void;
  /** The server refused the document (no access to the change request, or it is gone). */
  onDenied?: (reason: string) => void;
  /** Every update sent has been acknowledged by the server (nothing would be lost if the page closed now). */
  onSaved?: (saved: boolean) => void;
}

export interface CollabSession {
  document: Y.Doc;
  provider: HocuspocusProvider;
  /** This browser's copy of the document (none where IndexedDB is missing); `whenSynced` once it was read. */
  local: IndexeddbPersistence | undefined;
  /** Collaboration (the Y.Doc binding and its undo manager) and CollaborationCaret (others' carets and names). */
  extensions: AnyExtension[];
  destroy(): void;
}

/**
 * Opens the live document of a change request's page: a Y.Doc, its provider (connecting at once, reconnecting on its
 * own with backoff) and the TipTap extensions for the editor. `destroy` closes the socket and frees the document.
 */
/** The IndexedDB database of a member's copy of a page's live document. */
export const collabLocalName = (target: CollabTarget, userId: string): string =>
  `quire-collab:${userId}:${collabDocumentName(target)}`;

export function startCollab(target: CollabTarget, user: CollabUser, options: CollabOptions = {}): CollabSession {
  const document = new Y.Doc();
  const local =
    typeof indexedDB === 'undefined' ? undefined : new IndexeddbPersistence(collabLocalName(target, user.id), document);
  const websocketProvider = new HocuspocusProviderWebsocket({
    url: options.url ?? collabUrl(),
    onStatus: ({ status }) =>
      options.onStatus?.(
        status === WebSocketStatus.Connected
          ? 'connected'
          : status === WebSocketStatus.Connecting
            ? 'connecting'
            : 'disconnected',
      ),
  });
  const provider = new HocuspocusProvider({
    websocketProvider,
    name: collabDocumentName(target),
    document,
    // The session cookie authenticates the socket; Hocuspocus' protocol still sends a token, which the server ignores.
    token: 'session',
    onAuthenticated: ({ scope }) => options.onAccess?.(scope === 'read-write'),
    onAuthenticationFailed: ({ reason }) => {
      // no access (any more): this browser keeps nothing of the document
      void local?.clearData();
      options.onDenied?.(reason);
    },
    onUnsyncedChanges: ({ number }) => options.onSaved?.(number === 0),
  });
  provider.attach();
  const color = colorFor(user.id);
  const extensions: AnyExtension[] = [
    Collaboration.configure({ document, field: COLLAB_FIELD }),
    DeferredCaret.configure({
      provider,
      user: { name: user.name, color },
      // Others' selections carry a class per color (the page's CSP allows no style attribute): editor.css colors
      // `.collab-selection-<n>`; the caret and its label are colored through the DOM (allowed).
      selectionRender: (u: Record<string, any>) => ({
        class: `collab-selection collab-selection-${Math.max(0, CARET_COLORS.indexOf(String(u.color)))}`,
      }),
    }),
  ];
  return {
    document,
    provider,
    local,
    extensions,
    destroy: () => {
      // everything acknowledged: the server has it all, the copy would only go stale
      const acknowledged = provider.isSynced && provider.unsyncedChanges === 0;
      provider.destroy();
      websocketProvider.destroy();
      if (local) void (acknowledged ? local.clearData() : local.destroy());
      document.destroy();
    },
  };
}

// The editor of one page, in a change request (a draft one is opened on the first change when there is none).
// Loaded on demand: this module and TipTap are their own chunk.
import type { Editor } from '@tiptap/core';
import { useEffect, useRef, useState } from 'react';
import { changesApi } from '../api/changes.ts';
import { api, type PageWithDocument } from '../api/endpoints.ts';
import { COLLAB_FIELD, type CollabSession, type CollabStatus, startCollab } from '../editor/collab.ts';
import { EarlyKeys, keepEarlyKeys } from '../editor/early-keys.ts';
import { matching } from '../editor/blocks.ts';
import { editorToDocument, opaqueCount } from '@quire/document/editor';
import { EditorComments } from '../editor/comments.tsx';
import { createEditor } from '../editor/create.ts';
import { PagePicker } from '../editor/PagePicker.tsx';
import {
  contentRefNode,
  downloadSrc,
  drawingNode,
  fileNames,
  fileNode,
  fileUrls,
  flattenPages,
  imagesNode,
  type PickablePage,
  pageLinkData,
  pageTitles,
  toBase64,
  tooLarge,
} from '../editor/uploads.ts';
import { type Field, fieldsOf, SETTINGS, setField, type Target, targetOf, valueOf } from '../editor/settings.ts';
import { TableMenu } from '../editor/TableMenu.tsx';
import { BlockActions } from '../editor/BlockActions.tsx';
import { OpenAPISettings, ReusableContentSettings, reusableContentsOf } from '../editor/RefBlockSettings.tsx';
import { ButtonSettings } from '../editor/ButtonSettings.tsx';
import { setOpenAPIOperation, setReusableContent } from '../editor/ref-blocks.ts';
import { LinkDialog, type LinkTargets } from '../editor/LinkDialog.tsx';
import { InsertDialog, type InsertKind } from '../editor/InsertDialog.tsx';
import { MoreBlockSettings } from '../editor/MoreBlockSettings.tsx';
import { describeRef, headingsOf, type LinkAt, linkAt, removeLink, setLink } from '../editor/links.ts';
import '../editor/editor.css';

interface Props {
  space: string;
  changeRequest?: string;
  path: string;
  /** The change request opened by the first change (the screen moves to it). */
  onChangeRequest(number: string): void;
  onDone(): void;
}

type Status = 'idle' | 'unsaved' | 'saving' | 'saved' | 'error';
interface Draft {
  changeRequest?: string;
  document: unknown;
  version: number;
}
const draftKey = (space: string, page: string) => `quire:draft:${space}:${page}`;
const readDraft = (key: string): Draft | undefined => {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
};

export default function PageEditor({ space, changeRequest, path, onChangeRequest, onDone }: Props) {
  const [page, setPage] = useState<PageWithDocument>();
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<Status>('idle');
  const [kept, setKept] = useState(0);
  const [target, setTarget] = useState<Target>();
  /** Live collaboration (a change request's page with no unsaved draft of this browser): its connection. */
  const [live, setLive] = useState<CollabStatus | 'read-only'>();
  const [menu, setMenu] = useState<{ query: string; from: number; top: number; left: number; index: number }>();
  const [notice, setNotice] = useState('');
  /** The page picker: a link on the selected text (`from`–`to`), a content reference at `from`, or the new target
   * of the content reference at `from` (`retarget`). */
  const [picker, setPicker] = useState<{ kind: 'link' | 'ref' | 'retarget'; from: number; to: number }>();
  const [pages, setPages] = useState<PickablePage[]>();
  /** The link dialog (Ctrl/⌘-K): the text or link it edits. */
  const [linkEdit, setLinkEdit] = useState<LinkAt>();
  /** The link holding the cursor (its settings show its target, "Edit link…" and "Remove link"). */
  const [linkHere, setLinkHere] = useState<LinkAt>();
  /** The `/` menu's dialog choosing what an OpenAPI, reusable content or button block shows, and where it goes. */
  const [inserting, setInserting] = useState<{ kind: InsertKind; at: number }>();
  const fileInput = useRef<HTMLInputElement>(null);
  /** What the file chooser's files become: an image, a file, or (pasted, dropped) an image when they are one. */
  const uploadAs = useRef<'image' | 'file' | 'drawing' | 'replace' | 'dark'>('image');
  /** The image, drawing or older OpenAPI block whose file "Replace file…" replaces, or the image given a dark-mode
   * file (its position). */
  const replacing = useRef<number>(undefined);
  const creating = useRef<Promise<string>>(undefined);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor>(undefined);
  /** The editor once made (its comments' markers and action follow it). */
  const [made, setMade] = useState<Editor>();
  const cr = useRef(changeRequest);
  /** Keys typed before the page's content is in the editor: typed into it once it is (`early-keys.ts`). */
  const early = useRef<EarlyKeys>(undefined);
  early.current ??= new EarlyKeys();
  useEffect(() => keepEarlyKeys(early.current!, () => host.current), []);
  // A page that failed to load takes no keys: the page's own keys (space to scroll) work again.
  useEffect(() => {
    if (error) early.current!.done = true;
  }, [error]);
  const menuRef = useRef(menu);
  const movedTo = useRef(onChangeRequest);
  movedTo.current = onChangeRequest;
  menuRef.current = menu;
  cr.current = changeRequest ?? cr.current;

  // the page is read once per path: later changes of the change request (the first save) keep the editor
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once per page, not once per change request
  useEffect(() => {
    let live = true;
    const where = changeRequest ? { space, changeRequest } : { space };
    // the files, pages and reusable contents first: an image shows its picture, a file block its name, a page
    // reference its title
    Promise.all([
      api.pageByPath(where, path),
      api.files(where).catch(() => []),
      api.pages(where).catch(() => null),
      // a reusable content block shows its content's title
      reusableContentsOf(space, changeRequest).catch(() => []),
    ])
      .then(([p, files, tree]) => {
        for (const f of files) {
          fileUrls.set(f.id, downloadSrc(f.downloadURL));
          fileNames.set(f.id, f.name);
        }
        for (const pg of flattenPages((tree?.pages ?? []) as never)) pageTitles.set(pg.id, pg.title);
        if (live) setPage(p);
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [space, path]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `choose` reads refs only; the editor is made once per page
  useEffect(() => {
    if (!page || !host.current) return;
    const key = draftKey(space, page.id);
    // a draft left unsaved (a reload, a lost connection) is taken up again, in its own change request
    const kept = readDraft(key);
    const draft = kept && (!kept.changeRequest || !cr.current || kept.changeRequest === cr.current) ? kept : undefined;
    if (draft?.changeRequest && !cr.current) {
      cr.current = draft.changeRequest;
      movedTo.current(cr.current);
    }
    let version = draft?.version ?? 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let saving = false;
    let again = false;

    // The draft is written to localStorage before each save and when the page is hidden or left (a reload),
    // not on every keystroke: serialising a long page on each key would cost more than a frame.
    let dirty = false;
    const flush = () => {
      const ed = editor.current;
      if (!dirty || !ed) return;
      dirty = false;
      version += 1;
      localStorage.setItem(
        key,
        JSON.stringify({ changeRequest: cr.current, document: editorToDocument(ed.getJSON()), version }),
      );
    };
    const onHide = () => flush();
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onHide);

    const save = async () => {
      flush();
      if (saving) {
        again = true;
        return;
      }
      const current = readDraft(key);
      if (!current) return;
      saving = true;
      setStatus('saving');
      try {
        if (!cr.current) {
          await ensureChangeRequest(page.title);
          localStorage.setItem(key, JSON.stringify({ ...current, changeRequest: cr.current }));
        }
        await api.changeContent(space, cr.current!, [
          {
            operation: 'update_page',
            page: page.id,
            document: { document: current.document as Record<string, unknown> },
          },
        ]);
        // the draft is dropped only when nothing newer was typed meanwhile
        if (readDraft(key)?.version === current.version) localStorage.removeItem(key);
        setStatus(readDraft(key) || dirty ? 'unsaved' : 'saved');
      } catch (e) {
        setStatus('error');
        setError((e as Error).message);
      } finally {
        saving = false;
        if (again) {
          again = false;
          void save();
        }
      }
    };

    const onChange = (ed: Editor) => {
      dirty = true;
      setStatus('unsaved');
      clearTimeout(timer);
      timer = setTimeout(save, 500);
      updateMenu(ed);
    };

    const updateMenu = (ed: Editor) => {
      const { $from, empty } = ed.state.selection;
      const before = $from.parent.textBetween(0, $from.parentOffset, undefined, '\ufffc');
      const m = empty ? /(?:^|\s)\/(\w*)$/.exec(before) : null;
      if (!m || $from.parent.type.name === 'codeBlock') return setMenu(undefined);
      const coords = ed.view.coordsAtPos($from.pos);
      const box = host.current!.parentElement!.getBoundingClientRect();
      setMenu((old) => ({
        query: m[1]!,
        from: $from.pos - m[1]!.length - 1,
        top: coords.bottom - box.top + 4,
        left: Math.max(0, Math.min(coords.left - box.left, box.width - 260)),
        index: old && old.query === m[1] ? old.index : 0,
      }));
    };

    const onKeyDown = (event: KeyboardEvent): boolean => {
      const open = menuRef.current;
      if (!open) return false;
      const choices = matching(open.query);
      if (event.key === 'Escape') {
        setMenu(undefined);
        return true;
      }
      if (!choices.length) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setMenu({ ...open, index: (open.index + step + choices.length) % choices.length });
        return true;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        choose(open.index);
        return true;
      }
      return false;
    };

    // A page of a change request with no draft of this browser's is edited live (issue 41): the content comes from
    // the change request's shared Y.Doc, the server saves it into the change request, every writer sees the others.
    // Else (the main content: a draft change request opens on the first change; or a draft to send first) the
    // editor autosaves through the API, and opens live the next time.
    let ed: Editor | undefined;
    let session: CollabSession | undefined;
    let closed = false;
    const mount = (shared?: CollabSession) => {
      const made = createEditor({
        element: host.current!,
        ...(shared ? {} : { document: draft?.document ?? ('document' in page ? page.document : undefined) }),
        ...(shared ? { extensions: shared.extensions, undo: false } : {}),
        // live, the status is the provider's: "Saving…" while an update of this writer's is not acknowledged
        // (others' changes also arrive as editor updates: they are not this writer's to save)
        onChange: shared ? updateMenu : onChange,
        onKeyDown,
        onFiles: (files, pos) => {
          void upload(files, 'auto', pos);
          return true;
        },
        label: `Content of ${page.title}`,
      });
      made.on('selectionUpdate', ({ editor: e }) => updateMenu(e));
      // a table's rows and columns changed from the keys: said in the bar's live region
      made.on('tableAction' as never, ((r: { message: string }) => setNotice(r.message)) as never);
      made.on('linkDialog' as never, ((at: LinkAt) => setLinkEdit(at)) as never);
      // re-rendered only when the block with settings (or its attributes) changes, not on every keystroke
      made.on('transaction', ({ editor: e }) => {
        const t = targetOf(e);
        setTarget((old) => (old?.type === t?.type && old?.pos === t?.pos && old?.attrs === t?.attrs ? old : t));
      });
      // the link at the cursor, read once the selection settles (not on every selection change of a drag or Shift+End)
      let linkTimer: ReturnType<typeof setTimeout> | undefined;
      const readLink = ({ editor: e }: { editor: Editor }) => {
        clearTimeout(linkTimer);
        linkTimer = setTimeout(() => {
          if (e.isDestroyed) return;
          const l = e.state.selection.empty ? linkAt(e) : undefined;
          setLinkHere((old) => (old && l && old.from === l.from && old.to === l.to && old.attrs === l.attrs ? old : l));
        }, 150);
      };
      made.on('selectionUpdate', readLink);
      // a link changed or removed in place: its settings follow
      made.on('update', readLink);
      ed = made;
      editor.current = made;
      setMade(made);
      setKept(opaqueCount(made.getJSON() as never));
      if (draft && !shared) {
        setStatus('unsaved');
        void save();
      }
      made.commands.focus('end');
      // keys typed meanwhile go in once the content is there: at once, or, live, when the shared document has been
      // synced with the server or read from this browser's copy (with content); after 5 s in any case
      const keys = early.current!;
      if (!shared) keys.flush(made);
      else {
        const ready = () => setTimeout(() => keys.flush(made), 0);
        if (shared.provider.isSynced) ready();
        else shared.provider.on('synced', ready);
        void shared.local?.whenSynced.then(() => {
          if (shared.document.getXmlFragment(COLLAB_FIELD).length > 0) ready();
        });
        setTimeout(() => keys.flush(made), 5000);
      }
    };
    // Live, each keystroke is sent and acknowledged: "Saving…" then "Saved" would be two React commits a key, and
    // before each commit React walks the editor's DOM up to the caret to keep the selection (a 2,000-block page: a
    // frame missed per key). "Saved" shows once the acknowledgements have been complete for a moment instead.
    let savedTimer: ReturnType<typeof setTimeout> | undefined;
    const showSaved = (saved: boolean) => {
      clearTimeout(savedTimer);
      if (saved) savedTimer = setTimeout(() => setStatus('saved'), 300);
      else setStatus('saving');
    };
    const liveCr = !draft ? cr.current : undefined;
    if (liveCr)
      void Promise.all([changesApi.get(space, liveCr), changesApi.me()])
        .then(([c, me]) => {
          if (closed) return;
          session = startCollab(
            { spaceId: space, changeRequestId: c.id, pageId: page.id },
            { id: me.id, name: me.displayName },
            {
              onStatus: (s) => setLive((old) => (old === 'read-only' ? old : s)),
              onAccess: (writable) => {
                ed?.setEditable(writable);
                if (!writable) setLive('read-only');
              },
              onDenied: (reason) => setError(`Live editing was refused (${reason}).`),
              onSaved: showSaved,
            },
          );
          mount(session);
        })
        .catch(() => !closed && mount());
    else mount();
    return () => {
      closed = true;
      clearTimeout(timer);
      clearTimeout(savedTimer);
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
      // leaving the editor (Done, another page): what is unsaved is kept and sent
      if (dirty) void save();
      setMade(undefined);
      ed?.destroy();
      session?.destroy();
      editor.current = undefined;
    };
  }, [page, space]);

  /** The change request the edits go into: the draft one is opened by the first change (or upload). */
  const ensureChangeRequest = (title: string): Promise<string> => {
    if (cr.current) return Promise.resolve(cr.current);
    creating.current ??= api.createChangeRequest(space, `Edit ${title}`).then((made) => {
      cr.current = String(made.number);
      movedTo.current(cr.current);
      return cr.current;
    });
    return creating.current;
  };

  /** Uploads files into the change request (`insert_files`) and inserts a block referencing each. */
  const upload = async (
    files: File[],
    as: 'image' | 'file' | 'drawing' | 'auto' | 'replace' | 'dark',
    pos?: number,
  ) => {
    if (!page) return;
    for (const file of files) {
      const refused = tooLarge(file);
      if (refused) {
        setNotice(refused);
        continue;
      }
      try {
        setNotice(`Uploading ${file.name}…`);
        const id = await ensureChangeRequest(page.title);
        const where = { space, changeRequest: id };
        const before = new Set((await api.files(where)).map((f) => f.id));
        await api.changeContent(space, id, [
          {
            operation: 'insert_files',
            files: [
              { name: file.name, ...(file.type ? { contentType: file.type } : {}), base64: await toBase64(file) },
            ],
          },
        ]);
        const added = (await api.files(where)).filter((f) => !before.has(f.id));
        const made = added.find((f) => f.name === file.name) ?? added[0];
        if (!made) throw new Error(`${file.name} was not found in the change request after the upload.`);
        fileUrls.set(made.id, downloadSrc(made.downloadURL));
        fileNames.set(made.id, made.name);
        const ed = editor.current;
        if (!ed) return;
        if (as === 'replace' || as === 'dark') {
          // the image keeps its alt text, caption, width and key: only its file (or its dark-mode file) changes
          const at = pos ?? -1;
          const node = ed.state.doc.nodeAt(at);
          const kind = node?.type.name;
          if (!node || !(kind === 'image' || (as === 'replace' && (kind === 'drawing' || kind === 'swagger'))))
            throw new Error('the block is no longer there.');
          const field = as === 'dark' ? 'refDark' : 'ref';
          ed.chain()
            .focus()
            .command(({ tr }) => {
              tr.setNodeMarkup(at, undefined, {
                ...node.attrs,
                data: { ...node.attrs.data, [field]: { kind: 'file', file: made.id } },
              });
              return true;
            })
            .setNodeSelection(at)
            .run();
          setNotice(
            as === 'dark'
              ? `The image's dark-mode file is ${file.name}.`
              : `Replaced the ${kind === 'swagger' ? "OpenAPI block's" : `${kind}'s`} file with ${file.name}.`,
          );
          continue;
        }
        const image = as === 'image' || (as === 'auto' && file.type.startsWith('image/'));
        const node =
          as === 'drawing'
            ? drawingNode(made.id)
            : image
              ? imagesNode(made.id, file.name.replace(/\.[^.]*$/, ''))
              : fileNode(made.id);
        const chain = ed.chain().focus();
        (pos === undefined ? chain.insertContent(node) : chain.insertContentAt(pos, node)).run();
        setNotice(`Uploaded ${file.name}.`);
      } catch (e) {
        setNotice(`${file.name} was not uploaded: ${(e as Error).message}`);
      }
    }
  };

  const loadPages = () => {
    setPages(undefined);
    api
      .pages(cr.current ? { space, changeRequest: cr.current } : { space })
      .then((r) => setPages(flattenPages(r.pages as never)))
      .catch((e: Error) => setNotice(`The pages could not be read: ${e.message}`));
  };
  const where = () => (cr.current ? { space, changeRequest: cr.current } : { space });
  /** What a text link can go to besides web addresses and pages: the files and headings, read when asked. */
  const linkTargets: LinkTargets = {
    files: () =>
      api.files(where()).then((files) =>
        files.map((f) => {
          fileUrls.set(f.id, downloadSrc(f.downloadURL));
          fileNames.set(f.id, f.name);
          return { id: f.id, name: f.name, contentType: f.contentType };
        }),
      ),
    spaces: async () => {
      const here = await api.space(space);
      return (await api.spaces(here.organization)).map((sp) => ({ id: sp.id, title: sp.title }));
    },
    headings: async (other) => {
      if (!other) return headingsOf(editor.current ? (editorToDocument(editor.current.getJSON()) as never) : undefined);
      const read = await api.pageByPath(where(), other.path);
      return headingsOf('document' in read ? (read.document as never) : undefined);
    },
  };
  const openLinkDialog = () => {
    const ed = editor.current;
    const at = ed && linkAt(ed);
    if (!at) setNotice('Select some text first (or put the cursor in a link), then choose Link.');
    else setLinkEdit(at);
  };
  const openPicker = (kind: 'link' | 'ref') => {
    const ed = editor.current;
    if (!ed) return;
    const { from, to } = ed.state.selection;
    setPicker({ kind, from, to });
    loadPages();
  };

  const pick = (target: PickablePage) => {
    const ed = editor.current;
    const open = picker;
    setPicker(undefined);
    if (!ed || !open) return;
    pageTitles.set(target.id, target.title);
    if (open.kind === 'retarget') {
      const node = ed.state.doc.nodeAt(open.from);
      if (node?.type.name !== 'contentRef') return setNotice('The page reference is no longer there.');
      ed.chain()
        .focus()
        .command(({ tr }) => {
          tr.setNodeMarkup(open.from, undefined, {
            ...node.attrs,
            data: { ...node.attrs.data, ref: { kind: 'page', page: target.id } },
          });
          return true;
        })
        .setNodeSelection(open.from)
        .run();
      setNotice(`The page reference now links to ${target.title}.`);
    } else if (open.kind === 'link' && open.to > open.from)
      ed.chain()
        .focus()
        .setTextSelection({ from: open.from, to: open.to })
        .setMark('link', { data: pageLinkData(target.id) })
        .run();
    else ed.chain().focus().insertContentAt(open.from, contentRefNode(target.id)).run();
  };

  const choose = (index: number) => {
    const ed = editor.current;
    const open = menuRef.current;
    if (!ed || !open) return;
    const choice = matching(open.query)[index];
    if (!choice) return;
    ed.chain().focus().deleteRange({ from: open.from, to: ed.state.selection.from }).run();
    setMenu(undefined);
    if (choice.action === 'page') openPicker('ref');
    else if (
      choice.action === 'openapi' ||
      choice.action === 'openapi-schemas' ||
      choice.action === 'openapi-webhook' ||
      choice.action === 'reusable' ||
      choice.action === 'integration' ||
      choice.action === 'button'
    ) {
      if (choice.action === 'button') loadPages();
      setInserting({ kind: choice.action, at: ed.state.selection.from });
    } else if (choice.action) {
      uploadAs.current = choice.action;
      fileInput.current!.accept = choice.action === 'file' ? '' : 'image/*';
      fileInput.current!.click();
    } else choice.run(ed);
  };

  /** The link holding the cursor: its target, "Edit link…" and "Remove link" (also in a block with settings: a table). */
  const linkSettings = linkHere && (
    <section className="block-settings" aria-label="Link settings">
      <strong>Link</strong>
      <span>
        Links to: <strong>{describeRef(linkHere.attrs?.data?.ref)}</strong>
      </span>
      <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => setLinkEdit(linkHere)}>
        Edit link…
      </button>
      <button
        type="button"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => {
          if (editor.current) removeLink(editor.current, linkHere);
          setNotice('Link removed.');
        }}
      >
        Remove link
      </button>
    </section>
  );
  const choices = menu ? matching(menu.query) : [];
  const active = menu && choices[menu.index] ? `slash-${choices[menu.index]!.id}` : undefined;
  // the text keeps the focus while the menu is open: screen readers follow the active option through these
  useEffect(() => {
    const dom = editor.current?.view.dom;
    if (!dom) return;
    if (active) {
      dom.setAttribute('aria-controls', 'slash-menu');
      dom.setAttribute('aria-activedescendant', active);
    } else {
      dom.removeAttribute('aria-controls');
      dom.removeAttribute('aria-activedescendant');
    }
  }, [active]);
  return (
    <div className="page-editor">
      <div className="editor-bar">
        <h1>{page?.title ?? 'Loading…'}</h1>
        <p className="save-status" aria-live="polite" data-status={status}>
          {status === 'saving'
            ? 'Saving…'
            : status === 'saved'
              ? 'Saved'
              : status === 'unsaved'
                ? 'Unsaved changes'
                : status === 'error'
                  ? 'Not saved'
                  : ''}
        </p>
        {live && (
          <p className="muted live-status">
            {live === 'connected'
              ? 'Live: other writers of this change request see your changes'
              : live === 'read-only'
                ? 'Live, read-only: you may not edit this change request'
                : live === 'connecting'
                  ? 'Connecting…'
                  : 'Offline: reconnecting…'}
          </p>
        )}
        <button
          type="button"
          aria-keyshortcuts="Control+K Meta+K"
          onMouseDown={(e) => e.preventDefault()}
          onClick={openLinkDialog}
        >
          Link
        </button>
        <button
          type="button"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            const ed = editor.current;
            if (!ed || ed.state.selection.empty) setNotice('Select some text first, then choose Link to a page.');
            else openPicker('link');
          }}
        >
          Link to a page
        </button>
        {/* "Comment" here; its panel and notice wrap to a row of their own under the bar */}
        {page && (
          <EditorComments space={space} changeRequest={changeRequest ?? cr.current} page={page.id} editor={made} />
        )}
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      <p className="muted upload-status" aria-live="polite">
        {notice}
      </p>
      <input
        ref={fileInput}
        type="file"
        hidden
        aria-label="Choose a file to upload"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          const as = uploadAs.current;
          void upload(files, as, as === 'replace' || as === 'dark' ? replacing.current : undefined);
        }}
      />
      {picker && (
        <PagePicker
          title={
            picker.kind === 'link'
              ? 'Link to a page'
              : picker.kind === 'retarget'
                ? 'Change the referenced page'
                : 'Insert a page reference'
          }
          pages={pages}
          onPick={pick}
          onClose={() => {
            setPicker(undefined);
            editor.current?.commands.focus();
          }}
        />
      )}
      {inserting && (
        <InsertDialog
          kind={inserting.kind}
          space={space}
          changeRequest={cr.current}
          pages={pages}
          loadPages={loadPages}
          onInsert={(node, message) => {
            setInserting(undefined);
            editor.current?.chain().focus().insertContentAt(inserting.at, node).run();
            setNotice(message);
          }}
          onClose={() => {
            setInserting(undefined);
            editor.current?.commands.focus();
          }}
        />
      )}
      {linkEdit && editor.current && (
        <LinkDialog
          current={linkEdit.attrs?.data?.ref}
          text={editor.current.state.doc.textBetween(linkEdit.from, linkEdit.to, ' ')}
          pages={pages}
          loadPages={loadPages}
          targets={linkTargets}
          onSet={(ref) => {
            const text = editor.current!.state.doc.textBetween(linkEdit.from, linkEdit.to, ' ');
            setLink(editor.current!, linkEdit, ref);
            setLinkEdit(undefined);
            setNotice(`"${text}" links to ${describeRef(ref)}.`);
          }}
          onRemove={() => {
            removeLink(editor.current!, linkEdit);
            setLinkEdit(undefined);
            setNotice('Link removed.');
          }}
          onClose={() => {
            setLinkEdit(undefined);
            editor.current?.commands.focus();
          }}
        />
      )}
      {kept > 0 && (
        <p className="muted">
          {kept} block{kept > 1 ? 's' : ''} of this page are kept as they are: the editor cannot change them yet.
        </p>
      )}
      <p className="muted editor-help">
        Type / to insert a block · Markdown shortcuts work (# , - , 1. , &gt; , ```) · Ctrl/⌘-K on text: a link.
      </p>
      {/* always there, so the text does not move when the cursor enters a block with settings */}
      {target && SETTINGS[target.type] ? (
        <BlockSettings
          target={target}
          onSet={(field, value) => editor.current && setField(editor.current, target.pos, field, value)}
        >
          {target.type === 'table' && <TableMenu editor={editor.current} onResult={(r) => setNotice(r.message)} />}
          {target.type === 'openapiOperation' && (
            <OpenAPISettings
              space={space}
              target={target}
              onPick={(spec, op) => {
                if (!editor.current || !setOpenAPIOperation(editor.current, target.pos, spec, op)) return;
                setNotice(
                  op ? `The block shows ${op.method.toUpperCase()} ${op.path} of ${spec}.` : `Specification: ${spec}.`,
                );
              }}
            />
          )}
          {target.type === 'button' && (
            <ButtonSettings
              editor={editor.current}
              target={target}
              pages={pages}
              loadPages={loadPages}
              onNotice={setNotice}
            />
          )}
          {target.type === 'reusableContent' && (
            <ReusableContentSettings
              space={space}
              changeRequest={cr.current}
              target={target}
              onPick={(id, title) => {
                if (editor.current && setReusableContent(editor.current, target.pos, id, space))
                  setNotice(`The block includes ${title}.`);
              }}
            />
          )}
          <MoreBlockSettings
            editor={editor.current}
            space={space}
            target={target}
            onNotice={setNotice}
            onReplaceFile={(accept) => {
              uploadAs.current = 'replace';
              replacing.current = target.pos;
              fileInput.current!.accept = accept;
              fileInput.current!.click();
            }}
          />
          <BlockActions
            target={target}
            onChangePage={() => {
              setPicker({ kind: 'retarget', from: target.pos, to: target.pos });
              loadPages();
            }}
            onReplaceFile={(dark) => {
              uploadAs.current = dark ? 'dark' : 'replace';
              replacing.current = target.pos;
              fileInput.current!.accept = 'image/*';
              fileInput.current!.click();
            }}
            onRemoveDark={() => {
              const node = editor.current?.state.doc.nodeAt(target.pos);
              if (!editor.current || node?.type.name !== 'image') return;
              const { refDark: _, ...data } = node.attrs.data ?? {};
              editor.current
                .chain()
                .focus()
                .command(({ tr }) => {
                  tr.setNodeMarkup(target.pos, undefined, { ...node.attrs, data });
                  return true;
                })
                .setNodeSelection(target.pos)
                .run();
              setNotice("The image's dark-mode file was removed.");
            }}
          />
        </BlockSettings>
      ) : null}
      {linkHere ? (
        linkSettings
      ) : target && SETTINGS[target.type] ? null : (
        <section className="block-settings" aria-label="Block settings">
          <span className="muted">
            Settings of a code block, hint, tab, table, image, formula… show here when the cursor is in one.
          </span>
        </section>
      )}
      <div className="editor-host">
        <div ref={host} />
        {menu && choices.length > 0 && (
          <div
            className="slash-menu"
            id="slash-menu"
            role="listbox"
            aria-label="Insert a block"
            style={{ top: menu.top, left: menu.left }}
            onMouseDown={(e) => e.preventDefault()}
          >
            {choices.map((c, i) => (
              <div
                key={c.id}
                role="option"
                id={`slash-${c.id}`}
                aria-selected={i === menu.index}
                className={i === menu.index ? 'active' : ''}
                onClick={() => choose(i)}
                onKeyDown={() => {}}
                tabIndex={-1}
              >
                <strong>{c.label}</strong> <span className="muted">{c.hint}</span>
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

/** The settings of the block around the cursor, outside the text (Tab reaches them from the editor). */
function BlockSettings({
  target,
  onSet,
  children,
}: {
  target: Target;
  onSet(field: Field, value: string | boolean): void;
  children?: React.ReactNode;
}) {
  const spec = SETTINGS[target.type]!;
  return (
    <section className="block-settings" aria-label={`${spec.title} settings`}>
      <strong>{spec.title}</strong>
      {fieldsOf(target).map((f) => {
        const id = `block-${target.type}-${f.name}`;
        const value = valueOf(target, f);
        return (
          <label key={f.name} htmlFor={id}>
            {f.kind !== 'checkbox' && `${f.label} `}
            {f.kind === 'checkbox' ? (
              <input id={id} type="checkbox" checked={value === true} onChange={(e) => onSet(f, e.target.checked)} />
            ) : f.kind === 'select' ? (
              <select id={id} value={String(value)} onChange={(e) => onSet(f, e.target.value)}>
                {f.options?.map((o) => (
                  <option key={o} value={o}>
                    {o || 'none'}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                value={String(value)}
                readOnly={f.readOnly}
                {...(f.pixels ? { inputMode: 'decimal' as const, placeholder: '300 or 50%' } : {})}
                onChange={(e) => onSet(f, e.target.value)}
              />
            )}
            {f.kind === 'checkbox' && ` ${f.label}`}
          </label>
        );
      })}
      {children}
    </section>
  );
}

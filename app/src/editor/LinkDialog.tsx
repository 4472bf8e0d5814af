// The link dialog (Ctrl/⌘-K or the bar's Link on a selection or in a link): a web address, a page of the space (the
// page picker), a file of the space, a heading of this page or another, or a space of the organization (their
// pickers); an existing link's target shown, changed or removed.
import { useEffect, useId, useRef, useState } from 'react';
import { DialogButtons } from './DialogButtons.tsx';
import { describeRef, type HeadingAnchor, type LinkRef, urlOf } from './links.ts';
import { ItemPicker, PagePicker } from './PagePicker.tsx';
import { fileNames, type PickablePage, pageTitles, spaceTitles } from './uploads.ts';

/** A file of the space a link can go to. */
export interface LinkableFile {
  id: string;
  name: string;
  contentType?: string;
}

/** What the link dialog can pick besides pages: absent, it offers web addresses and pages only (a button's target). */
export interface LinkTargets {
  /** The space's (or change request's) files, through /v1. */
  files(): Promise<LinkableFile[]>;
  /** The headings of this page (no page) or of another page of the space. */
  headings(page?: PickablePage): Promise<HeadingAnchor[]>;
  /** The organization's spaces the writer can see (a link to a space goes to its home). */
  spaces(): Promise<{ id: string; title: string }[]>;
}

interface Props {
  /** The link's current target, when the text is a link already. */
  current: LinkRef | undefined;
  /** The selected text (or the link's): what becomes a link. */
  text: string;
  pages: PickablePage[] | undefined;
  /** Asks for the pages (the picker shows "Loading pages…" until they come). */
  loadPages(): void;
  onSet(ref: LinkRef): void;
  /** absent: the target cannot be removed (a button's) */
  onRemove?(): void;
  onClose(): void;
  /** the dialog's heading (a link's: "Add a link" or "Edit link") */
  title?: string;
  /** files and headings to link to (a text link's) */
  targets?: LinkTargets;
}

type Picking =
  | { kind: 'page' }
  | { kind: 'file'; files?: LinkableFile[]; error?: string }
  | { kind: 'space'; spaces?: { id: string; title: string }[]; error?: string }
  | { kind: 'heading-page' }
  | { kind: 'heading'; page?: PickablePage; headings?: HeadingAnchor[]; error?: string };

export function LinkDialog({ current, text, pages, loadPages, onSet, onRemove, onClose, title, targets }: Props) {
  const [picking, setPicking] = useState<Picking>();
  const [url, setUrl] = useState(current?.kind === 'url' ? String(current.url) : '');
  const [error, setError] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useId();
  const errorId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: back from the page picker, the dialog is a new element
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal?.();
  }, [picking]);

  const back = () => setPicking(undefined);
  const pickFiles = () => {
    if (!targets) return;
    setPicking({ kind: 'file' });
    targets
      .files()
      .then((files) => setPicking((p) => (p?.kind === 'file' ? { kind: 'file', files } : p)))
      .catch((e: Error) => setPicking((p) => (p?.kind === 'file' ? { kind: 'file', files: [], error: e.message } : p)));
  };
  const pickSpaces = () => {
    if (!targets) return;
    setPicking({ kind: 'space' });
    targets
      .spaces()
      .then((spaces) => setPicking((p) => (p?.kind === 'space' ? { kind: 'space', spaces } : p)))
      .catch((e: Error) =>
        setPicking((p) => (p?.kind === 'space' ? { kind: 'space', spaces: [], error: e.message } : p)),
      );
  };
  const pickHeadings = (page?: PickablePage) => {
    if (!targets) return;
    setPicking({ kind: 'heading', page });
    targets
      .headings(page)
      .then((headings) => setPicking((p) => (p?.kind === 'heading' ? { ...p, headings } : p)))
      .catch((e: Error) => setPicking((p) => (p?.kind === 'heading' ? { ...p, headings: [], error: e.message } : p)));
  };

  if (picking?.kind === 'page' || picking?.kind === 'heading-page')
    return (
      <PagePicker
        title={picking.kind === 'page' ? `Link "${text}" to a page` : 'Link to a heading of which page?'}
        pages={pages}
        onPick={(p) => {
          pageTitles.set(p.id, p.title);
          if (picking.kind === 'page') onSet({ kind: 'page', page: p.id });
          else pickHeadings(p);
        }}
        onClose={back}
      />
    );
  if (picking?.kind === 'file')
    return (
      <ItemPicker
        title={`Link "${text}" to a file`}
        noun="files"
        none={picking.error ? `The files could not be read: ${picking.error}` : 'This space has no files yet.'}
        items={picking.files?.map((f) => ({ id: f.id, title: f.name, detail: f.contentType }))}
        onPick={(f) => {
          fileNames.set(f.id, f.title);
          onSet({ kind: 'file', file: f.id });
        }}
        onClose={back}
      />
    );
  if (picking?.kind === 'space')
    return (
      <ItemPicker
        title={`Link "${text}" to a space`}
        noun="spaces"
        none={picking.error ? `The spaces could not be read: ${picking.error}` : 'No space to link to.'}
        items={picking.spaces}
        onPick={(sp) => {
          spaceTitles.set(sp.id, sp.title);
          onSet({ kind: 'space', space: sp.id });
        }}
        onClose={back}
      />
    );
  if (picking?.kind === 'heading')
    return (
      <ItemPicker
        title={
          picking.page
            ? `Link "${text}" to a heading of ${picking.page.title}`
            : `Link "${text}" to a heading of this page`
        }
        noun="headings"
        none={picking.error ? `The page could not be read: ${picking.error}` : 'This page has no headings.'}
        items={picking.headings?.map((h) => ({ id: h.anchor, title: h.title, detail: `#${h.anchor}` }))}
        onPick={(h) =>
          onSet(
            picking.page ? { kind: 'anchor', anchor: h.id, page: picking.page.id } : { kind: 'anchor', anchor: h.id },
          )
        }
        onClose={back}
      >
        {picking.page ? (
          <button type="button" onClick={() => pickHeadings()}>
            This page's headings
          </button>
        ) : (
          <button
            type="button"
            onClick={() => {
              loadPages();
              setPicking({ kind: 'heading-page' });
            }}
          >
            Another page…
          </button>
        )}
      </ItemPicker>
    );
  return (
    <dialog
      ref={dialog}
      className="page-picker link-dialog"
      aria-labelledby={heading}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={heading}>{title ?? (current ? 'Edit link' : 'Add a link')}</h2>
      <p className="link-text">
        Text: <strong>{text}</strong>
      </p>
      {current && (
        <p className="link-target">
          Links to: <strong>{describeRef(current)}</strong>
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const made = urlOf(url);
          if ('error' in made) setError(made.error);
          else onSet({ kind: 'url', url: made.url });
        }}
      >
        <label>
          Web address{' '}
          <input
            type="text"
            inputMode="url"
            value={url}
            placeholder="https://…"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => {
              setUrl(e.target.value);
              setError('');
            }}
          />
        </label>
        {error && (
          <p id={errorId} role="alert">
            {error}
          </p>
        )}
        <DialogButtons submit="Link to this address" onCancel={onClose}>
          <button
            type="button"
            onClick={() => {
              loadPages();
              setPicking({ kind: 'page' });
            }}
          >
            Link to a page…
          </button>
          {targets && (
            <>
              <button type="button" onClick={pickFiles}>
                Link to a file…
              </button>
              <button type="button" onClick={() => pickHeadings()}>
                Link to a heading…
              </button>
              <button type="button" onClick={pickSpaces}>
                Link to a space…
              </button>
            </>
          )}
          {current && onRemove && (
            <button type="button" onClick={onRemove}>
              Remove link
            </button>
          )}
        </DialogButtons>
      </form>
    </dialog>
  );
}

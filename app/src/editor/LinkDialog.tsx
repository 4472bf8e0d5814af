// The link dialog (Ctrl/⌘-K on a selection or in a link): a web address, or a page of the space through the page
// picker; an existing link's target shown, changed or removed.
import { useEffect, useId, useRef, useState } from 'react';
import { DialogButtons } from './DialogButtons.tsx';
import { describeRef, type LinkRef, urlOf } from './links.ts';
import { PagePicker } from './PagePicker.tsx';
import { type PickablePage, pageTitles } from './uploads.ts';

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
}

export function LinkDialog({ current, text, pages, loadPages, onSet, onRemove, onClose, title }: Props) {
  const [picking, setPicking] = useState(false);
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

  if (picking)
    return (
      <PagePicker
        title={`Link "${text}" to a page`}
        pages={pages}
        onPick={(p) => {
          pageTitles.set(p.id, p.title);
          onSet({ kind: 'page', page: p.id });
        }}
        onClose={() => setPicking(false)}
      />
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
              setPicking(true);
            }}
          >
            Link to a page…
          </button>
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

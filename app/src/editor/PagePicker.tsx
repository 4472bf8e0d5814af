// A small dialog listing the space's pages with a filter box: links and content references pick their page here.
import { useEffect, useId, useRef, useState } from 'react';
import { filterPages, type PickablePage } from './uploads.ts';

interface Props {
  title: string;
  pages: PickablePage[] | undefined;
  onPick(page: PickablePage): void;
  onClose(): void;
}

export function PagePicker({ title, pages, onPick, onClose }: Props) {
  const [filter, setFilter] = useState('');
  const [index, setIndex] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useId();
  const listId = useId();
  const shown = filterPages(pages ?? [], filter);
  const active = shown[Math.min(index, shown.length - 1)];

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal?.();
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (shown.length)
        setIndex(
          (i) => (Math.min(i, shown.length - 1) + (e.key === 'ArrowDown' ? 1 : -1) + shown.length) % shown.length,
        );
    } else if (e.key === 'Enter' && active) {
      e.preventDefault();
      onPick(active);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="page-picker"
      aria-labelledby={heading}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={heading}>{title}</h2>
      <label>
        Filter pages{' '}
        <input
          type="search"
          value={filter}
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={active ? `${listId}-${active.id}` : undefined}
          onChange={(e) => {
            setFilter(e.target.value);
            setIndex(0);
          }}
          onKeyDown={onKeyDown}
        />
      </label>
      {!pages ? (
        <p>Loading pages…</p>
      ) : (
        <div id={listId} role="listbox" aria-label="Pages" className="picker-list">
          {shown.map((p) => (
            <div
              key={p.id}
              tabIndex={-1}
              id={`${listId}-${p.id}`}
              role="option"
              aria-selected={p === active}
              className={p === active ? 'active' : ''}
              onClick={() => onPick(p)}
              onKeyDown={() => {}}
            >
              {p.title} <span className="muted">{p.path}</span>
            </div>
          ))}
        </div>
      )}
      {pages && shown.length === 0 && <p>No page matches.</p>}
      <button type="button" onClick={onClose}>
        Cancel
      </button>
    </dialog>
  );
}

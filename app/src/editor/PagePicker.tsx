// A small dialog listing things to pick with a filter box: links and content references pick their page here, links
// their file or heading (`ItemPicker`).
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { PickablePage } from './uploads.ts';

/** One entry of a picker: its id, what it is called, and what tells it apart (a page's path, a file's type). */
export interface PickerItem {
  id: string;
  title: string;
  detail?: string;
}

/** The items whose title or detail holds `filter` (any case); all of them for a blank filter. */
export const filterItems = <T extends PickerItem>(items: readonly T[], filter: string): T[] => {
  const q = filter.trim().toLowerCase();
  return q
    ? items.filter((p) => p.title.toLowerCase().includes(q) || (p.detail ?? '').toLowerCase().includes(q))
    : [...items];
};

interface ItemProps<T extends PickerItem> {
  title: string;
  items: T[] | undefined;
  /** what the list holds, plural: "pages", "files", "headings" (the filter's and the list's labels) */
  noun: string;
  /** said when there is nothing to pick at all */
  none?: string;
  onPick(item: T): void;
  onClose(): void;
  /** more buttons, beside Cancel */
  children?: ReactNode;
}

export function ItemPicker<T extends PickerItem>({
  title,
  items,
  noun,
  none,
  onPick,
  onClose,
  children,
}: ItemProps<T>) {
  const [filter, setFilter] = useState('');
  const [index, setIndex] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useId();
  const listId = useId();
  const shown = filterItems(items ?? [], filter);
  const active = shown[Math.min(index, shown.length - 1)];

  // biome-ignore lint/correctness/useExhaustiveDependencies: another picker in the same place is a new dialog element
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal?.();
  }, [title]);

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
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);

  return (
    <dialog
      key={title}
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
        Filter {noun}{' '}
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
      {!items ? (
        <p>Loading {noun}…</p>
      ) : (
        <div id={listId} role="listbox" aria-label={Noun} className="picker-list">
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
              {p.title} {p.detail && <span className="muted">{p.detail}</span>}
            </div>
          ))}
        </div>
      )}
      {items && items.length === 0 && none ? (
        <p>{none}</p>
      ) : (
        items && shown.length === 0 && <p>No {noun.replace(/s$/, '')} matches.</p>
      )}
      <div className="dialog-buttons">
        {children}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

interface Props {
  title: string;
  pages: PickablePage[] | undefined;
  onPick(page: PickablePage): void;
  onClose(): void;
}

/** The space's pages (title, path) to pick from. */
export function PagePicker({ title, pages, onPick, onClose }: Props) {
  const items = pages?.map((p) => ({ ...p, detail: p.path }));
  return (
    <ItemPicker
      title={title}
      items={items}
      noun="pages"
      onPick={(p) => onPick({ id: p.id, title: p.title, path: p.path })}
      onClose={onClose}
    />
  );
}

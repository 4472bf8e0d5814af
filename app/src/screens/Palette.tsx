import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { api, type SearchResults } from '../api/endpoints.ts';

/** Ctrl/⌘-K: the organization's search (`GET /v1/orgs/{org}/search`), arrows to choose, Enter to open, Esc to close. */
export default function Palette({ org, onClose }: { org: string; onClose(): void }) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ title: string; space: string; url: string }[]>([]);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string>();
  const dialog = useRef<HTMLDialogElement>(null);
  const [, navigate] = useLocation();

  useEffect(() => {
    const d = dialog.current;
    d?.showModal();
    return () => d?.close();
  }, []);
  useEffect(() => {
    if (!query.trim()) return setResults([]);
    let live = true;
    const timer = setTimeout(() => {
      api.search(org, query).then(
        (r: SearchResults) => {
          if (!live) return;
          setError(undefined);
          setActive(0);
          setResults(
            r.items.flatMap((s) =>
              s.pages.map((p) => ({
                title: p.title,
                space: s.title,
                url: new URL(p.urls.app, location.href).pathname,
              })),
            ),
          );
        },
        (err: Error) => live && setError(err.message),
      );
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [org, query]);

  const open = (url: string) => {
    onClose();
    navigate(url);
  };
  return (
    <dialog ref={dialog} className="palette" aria-label="Find" onClose={onClose}>
      <label>
        <span className="sr-only">Find in this organization</span>
        <input
          type="search"
          placeholder="Find pages…"
          value={query}
          aria-controls="palette-results"
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, results.length - 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
            else if (e.key === 'Enter' && results[active]) open(results[active].url);
            else return;
            e.preventDefault();
          }}
        />
      </label>
      {error && <p role="alert">{error}</p>}
      <p className="sr-only" aria-live="polite">
        {query.trim() ? `${results.length} results` : ''}
      </p>
      <ul id="palette-results" aria-label="Results">
        {results.map((r, i) => (
          <li key={r.url}>
            <button
              type="button"
              className={i === active ? 'active' : undefined}
              aria-current={i === active ? 'true' : undefined}
              onClick={() => open(r.url)}
            >
              <span>{r.title}</span> <span className="muted">{r.space}</span>
            </button>
          </li>
        ))}
      </ul>
      {query.trim() && results.length === 0 && !error && <p className="muted">No pages found.</p>}
    </dialog>
  );
}

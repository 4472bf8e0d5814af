import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload(): void;
}

/**
 * How a screen's data stays current while it is open, for what other members change (a list of spaces, reviews,
 * comments); not for the data a form is filled from, which a reload would reset under the writer's hands.
 */
export interface LoadOptions {
  /** Reloads in the background when the tab comes back into view or the window gets the focus. */
  live?: boolean;
  /** And every this many milliseconds while the page is visible. */
  every?: number;
}

/** Background reloads closer than this to the last load are skipped (a focus right after a visibility change). */
const FRESH_MS = 2_000;

/**
 * Loads `fn()` when `key` changes (and on `reload`); the previous data stays shown while reloading. With `live`, what
 * others change reaches an open screen: it loads again, in the background (no loading state, a failure leaves the
 * data shown), when the browser tab comes back into view or the window gets the focus, and every `every` ms while
 * the page is visible.
 */
export function useLoad<T>(fn: () => Promise<T>, key: string, options: LoadOptions = {}): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const latest = useRef({ fn, key, loadedAt: 0, busy: false });
  latest.current.fn = fn;
  latest.current.key = key;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for what `fn` reads.
  useEffect(() => {
    let live = true;
    const l = latest.current;
    l.busy = true;
    setState((s) => ({ ...s, loading: true }));
    fn()
      .then(
        (data) => live && setState({ data, loading: false }),
        (error: Error) => live && setState((s) => ({ ...s, error, loading: false })),
      )
      .finally(() => {
        if (!live) return;
        l.busy = false;
        l.loadedAt = Date.now();
      });
    return () => {
      live = false;
    };
  }, [key, tick]);
  const { live = false, every } = options;
  useEffect(() => {
    if (!live) return;
    const l = latest.current;
    const refresh = () => {
      if (document.visibilityState !== 'visible' || l.busy || Date.now() - l.loadedAt < FRESH_MS) return;
      const key = l.key;
      l.busy = true;
      l.fn()
        .then(
          (data) => l.key === key && setState({ data, loading: false }),
          () => {},
        )
        .finally(() => {
          l.busy = false;
          l.loadedAt = Date.now();
        });
    };
    document.addEventListener('visibilitychange', refresh);
    window.addEventListener('focus', refresh);
    const timer = every ? setInterval(refresh, every) : undefined;
    return () => {
      document.removeEventListener('visibilitychange', refresh);
      window.removeEventListener('focus', refresh);
      if (timer) clearInterval(timer);
    };
  }, [live, every]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Runs an action: `busy` while it runs, its error kept to be shown next to the control. */
export function useAction(): {
  busy: boolean;
  error: string | undefined;
  run<T>(fn: () => Promise<T>): Promise<T | undefined>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(async <T>(fn: () => Promise<T>) => {
    setBusy(true);
    setError(undefined);
    try {
      return await fn();
    } catch (err) {
      setError((err as Error).message);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}

/** A page of a list as the API answers it. */
export interface ListPage<T> {
  items: T[];
  next?: { page: string } | undefined;
  count: number;
}

/**
 * A list read page by page, newest first ("Show older"): the first page when `key` changes, `loadMore` appends the
 * next one; `error` is the failure of the last `loadMore`.
 */
export function usePaged<T>(fn: (page?: string) => Promise<ListPage<T>>, key: string) {
  const [more, setMore] = useState<{ items: T[]; next?: string | undefined }>({ items: [] });
  const first = useLoad(async () => {
    const page = await fn();
    setMore({ items: [], next: page.next?.page });
    return page;
  }, key);
  const action = useAction();
  const loadMore = async () => {
    const next = more.next;
    if (!next) return;
    const page = await action.run(() => fn(next));
    if (page) setMore((m) => ({ items: [...m.items, ...page.items], next: page.next?.page }));
  };
  return {
    first,
    items: [...(first.data?.items ?? []), ...more.items],
    count: first.data?.count,
    hasMore: more.next !== undefined,
    loadMore,
    busy: action.busy,
    error: action.error,
  };
}

import { useCallback, useEffect, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload(): void;
}

/** Loads `fn()` when `key` changes (and on `reload`); the previous data stays shown while reloading. */
export function useLoad<T>(fn: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for what `fn` reads.
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (data) => live && setState({ data, loading: false }),
      (error: Error) => live && setState((s) => ({ ...s, error, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
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

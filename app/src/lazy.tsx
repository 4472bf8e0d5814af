import { type ComponentType, lazy, useState } from 'react';

/** A screen loaded on demand (its own chunk), which can be loaded ahead with `preload`. */
export interface Screen<P> {
  (props: P): React.ReactNode;
  preload(): Promise<unknown>;
}

/**
 * `React.lazy`, plus: once the chunk is loaded, the component renders directly instead of suspending. React 19
 * holds a Suspense boundary's fallback for at least 300 ms once shown, so a screen whose chunk is loaded ahead
 * (`preload`) appears at once instead of 300 ms later. A screen drawn before its chunk came stays `React.lazy`'s.
 */
export function screen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): Screen<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<unknown> | undefined;
  const preload = () =>
    (pending ??= load().then((m) => {
      loaded = m.default;
      return m;
    }));
  const Lazy = lazy(() => preload() as Promise<{ default: ComponentType<P> }>);
  // biome-ignore lint/correctness/noComponentHookFactories: called once per screen at module level (screens.ts), never in a render
  const Screen = (props: P) => {
    // Each mounted screen keeps the component it was first drawn with: switching from `Lazy` to the loaded one on a
    // later render would be another component type, and React would rebuild the screen (an open editor, a dialog).
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  };
  return Object.assign(Screen, { preload });
}

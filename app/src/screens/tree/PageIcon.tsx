import { type CSSProperties, useEffect, useState } from 'react';
import { iconLoads, iconSrc } from './page-icon.ts';

/**
 * A page's Font Awesome icon beside its title (tree, page view): its SVG masks a box of the text's colour, hidden from
 * screen readers (the title says what the page is). Drawn once the SVG loaded: a name that is no icon draws nothing.
 */
export function PageIcon({ icon }: { icon: string | undefined | null }) {
  const src = iconSrc(icon);
  const [loaded, setLoaded] = useState<string | null>(null);
  useEffect(() => {
    if (!src) return;
    let live = true;
    void iconLoads(src).then((ok) => live && ok && setLoaded(src));
    return () => {
      live = false;
    };
  }, [src]);
  if (!src || loaded !== src) return null;
  return <span className="page-icon" aria-hidden="true" style={{ '--icon': `url(${src})` } as CSSProperties} />;
}

/**
 * A page's `icon` (GitBook's Font Awesome name, `book-open`) as the gateway serves it: `/_quire/icons/{name}.svg`, the
 * name spelt as the server spells it (trimmed, lowercase, no `fa-` prefix nor style class: `fa-solid fa-book-open`
 * → `book-open`); null when it cannot be a name. Whether the icon exists is the server's answer (a 404 draws nothing).
 */
export function iconSrc(value: string | undefined | null): string | null {
  const last = (value ?? '').trim().toLowerCase().split(/\s+/).pop() ?? '';
  const name = last.startsWith('fa-') ? last.slice(3) : last;
  return name.length <= 64 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) ? `/_quire/icons/${name}.svg` : null;
}

/** Each icon asked once: whether its SVG loaded (an image the browser caches, so the mask that draws it reuses it). */
const loads = new Map<string, Promise<boolean>>();
export function iconLoads(src: string): Promise<boolean> {
  let p = loads.get(src);
  if (!p) {
    p = new Promise<boolean>((resolve) => {
      const img = new Image();
      img.onload = () => resolve(true);
      img.onerror = () => resolve(false);
      img.src = src;
    });
    loads.set(src, p);
  }
  return p;
}

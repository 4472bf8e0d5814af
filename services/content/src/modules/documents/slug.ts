import anyAscii from 'any-ascii';

export const MAX_SLUG_LENGTH = 100;
export const FALLBACK_SLUG = 'untitled';

/**
 * The URL slug of a page title: letters and digits transliterated to ASCII where a reading exists (`é` → `e`,
 * `ß` → `ss`, `Привет` → `privet`, `東京` → `dongjing`), lowercase, words joined by `-`, apostrophes removed
 * (`don't` → `dont`), everything else (punctuation, symbols, emoji) dropped; at most 100 characters, cut at a word boundary when one is close; `untitled` when nothing
 * is left.
 */
export function slugify(title: string): string {
  const letters = title
    .normalize('NFKC')
    .replace(/['’]/g, '') // "Don't" is one word
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' '); // symbols and emoji are dropped, not spelled out
  const words = anyAscii(letters)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  return clip(words.join('-'), MAX_SLUG_LENGTH) || FALLBACK_SLUG;
}

/** `slug` when free, else `slug-2`, `slug-3`… (cut so that the result stays within 100 characters). */
export function uniqueSlug(slug: string, taken: ReadonlySet<string>): string {
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${clip(slug, MAX_SLUG_LENGTH - suffix.length) || FALLBACK_SLUG}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function clip(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max);
  const boundary = cut.lastIndexOf('-');
  // prefer ending on a whole word, unless that would throw away more than a fifth of the room
  return (boundary >= max * 0.8 ? cut.slice(0, boundary) : cut).replace(/-+$/, '');
}

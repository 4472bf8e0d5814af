import anyAscii from 'any-ascii';

export const MAX_SLUG_LENGTH = 100;
export const FALLBACK_SLUG = 'untitled';

export interface SlugOptions {
  /** What a title with no letter or digit becomes (`untitled` unless said). */
  fallback?: string;
  /** At most this many characters (100 unless said). */
  max?: number;
}

/**
 * The one URL slug of a title (pages, site basenames, sections, site spaces): letters and digits
 * transliterated to ASCII where a reading exists (`é` → `e`, `ß` → `ss`, `Привет` → `privet`, `東京` →
 * `dongjing`), lowercase, words joined by `-`, apostrophes removed (`don't` → `dont`), everything else
 * (punctuation, symbols, emoji) dropped; at most `max` characters, cut at a word boundary when one is close;
 * `fallback` when nothing is left.
 */
export function slugify(title: string, { fallback = FALLBACK_SLUG, max = MAX_SLUG_LENGTH }: SlugOptions = {}): string {
  const letters = title
    .normalize('NFKC')
    .replace(/['’]/g, '') // "Don't" is one word
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' '); // symbols and emoji are dropped, not spelled out
  const words = anyAscii(letters)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  return clip(words.join('-'), max) || fallback;
}

/** `slug` when free, else `slug-2`, `slug-3`… (cut so that the result stays within `max` characters). */
export function uniqueSlug(
  slug: string,
  taken: Iterable<string> | Pick<ReadonlySet<string>, 'has'>,
  max = MAX_SLUG_LENGTH,
): string {
  const used = 'has' in taken && typeof taken.has === 'function' ? taken : new Set(taken as Iterable<string>);
  if (!used.has(slug)) return slug;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${clip(slug, max - suffix.length) || FALLBACK_SLUG}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

function clip(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max);
  const boundary = cut.lastIndexOf('-');
  // prefer ending on a whole word, unless that would throw away more than a fifth of the room
  return (boundary >= max * 0.8 ? cut.slice(0, boundary) : cut).replace(/-+$/, '');
}

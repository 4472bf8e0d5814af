import type { RevisionFile } from '@quire/contracts';
import { html, type Html } from '../html.ts';

/** A page's cover as the published site reads it from the revision (GitBook's `RevisionPageDocumentCover`). */
export interface PageCover {
  ref: { kind?: string; file?: string; url?: string; space?: string };
  refDark?: { kind?: string; file?: string; url?: string; space?: string } | undefined;
  /** GitBook's vertical offset of the image's centre in the cover, in the image's pixels (0: centred). */
  yPos: number;
  /** The cover's height in pixels (GitBook: 240 by default, 10 to 700). */
  height?: number | undefined;
}

/** GitBook's cover heights (`coverHeight.ts` of its renderer). */
export const COVER_HEIGHT = { default: 240, min: 10, max: 700 } as const;
/** The width the cover is laid out for: the page's column (`--content`, 46rem). */
const COLUMN_WIDTH = 736;

type RefLike = PageCover['ref'];
const objectOf = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const refOf = (v: unknown): RefLike | undefined => {
  const o = objectOf(v);
  if (!o || typeof o.kind !== 'string') return undefined;
  return {
    kind: o.kind,
    ...(typeof o.file === 'string' ? { file: o.file } : {}),
    ...(typeof o.url === 'string' ? { url: o.url } : {}),
    ...(typeof o.space === 'string' ? { space: o.space } : {}),
  };
};

/** A revision page's `cover` as the site uses it; undefined when it has none it can read. */
export function coverOf(raw: unknown): PageCover | undefined {
  const o = objectOf(raw);
  const ref = o ? refOf(o.ref) : undefined;
  if (!o || !ref) return undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return { ref, refDark: refOf(o.refDark), yPos: num(o.yPos) ?? 0, height: num(o.height) };
}

/** The image of a file reference of the revision (an image file, not another space's), or null. */
function imageFile(ref: RefLike | undefined, files: ReadonlyMap<string, RevisionFile>): RevisionFile | null {
  if (ref?.kind !== 'file' || !ref.file || ref.space) return null;
  const file = files.get(ref.file);
  return file?.contentType.startsWith('image/') ? file : null;
}

/**
 * Where the cover shows its image, as GitBook's renderer computes it (`useCoverPosition`): the image covers the
 * box (`object-fit: cover`), its centre moved by `yPos` of its pixels within what overflows, as a percentage for
 * `object-position`; 50 (centred) when the image does not overflow or its size is unknown. Computed here for the
 * page's column width, so it needs no script.
 */
export function coverPositionY(
  yPos: number,
  image: { width: number; height: number } | undefined,
  box: { width: number; height: number },
): number {
  if (!image || image.width <= 0 || image.height <= 0) return 50;
  const ratio = Math.max(box.width / image.width, box.height / image.height) || 1;
  const scaled = image.height * ratio;
  const maxOffset = Math.max(0, (scaled - box.height) / 2 / ratio);
  if (scaled <= box.height || maxOffset === 0) return 50;
  const clamped = Math.max(-maxOffset, Math.min(maxOffset, yPos));
  return Math.round(((maxOffset - clamped) / (2 * maxOffset)) * 10_000) / 100;
}

/**
 * A page's cover as GitBook shows it: the image across the top of the page, above its title, `alt` empty (it is
 * decoration), cropped to the cover's height and placed by `yPos`; a dark-mode image when it has one. Nothing for a
 * cover that is not an image file of the revision (an image of another origin is never loaded by the site).
 */
export function coverHtml(cover: PageCover | undefined, files: ReadonlyMap<string, RevisionFile>): Html {
  const light = cover ? imageFile(cover.ref, files) : null;
  if (!cover || !light) return html``;
  const height = Math.min(COVER_HEIGHT.max, Math.max(COVER_HEIGHT.min, cover.height ?? COVER_HEIGHT.default));
  const y = coverPositionY(cover.yPos, light.dimensions, { width: COLUMN_WIDTH, height });
  const size = light.dimensions
    ? html` width="${String(light.dimensions.width)}" height="${String(light.dimensions.height)}"`
    : html``;
  const img = html`<img src="${light.downloadURL}" alt=""${size} style="object-position:50% ${String(y)}%" decoding="async" fetchpriority="high">`;
  const dark = imageFile(cover.refDark, files);
  const shown = dark
    ? html`<picture><source srcset="${dark.downloadURL}" media="(prefers-color-scheme: dark)">${img}</picture>`
    : img;
  return html`<div class="page-cover" style="height:${String(height)}px">${shown}</div>`;
}

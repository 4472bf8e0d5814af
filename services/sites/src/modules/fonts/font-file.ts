import type { FontFormat } from './custom-font.repository.ts';

/**
 * The format of a font file told by its first bytes (never by its name or its declared type): WOFF2 (`wOF2`),
 * WOFF (`wOFF`), OpenType with CFF outlines (`OTTO`) or TrueType (`00 01 00 00`, or `true`); null for anything else.
 */
export function fontFormatOf(bytes: Uint8Array): FontFormat | null {
  if (bytes.length < 12) return null;
  const tag = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (tag === 'wOF2') return 'woff2';
  if (tag === 'wOFF') return 'woff';
  if (tag === 'OTTO') return 'otf';
  if (tag === 'true' || (bytes[0] === 0 && bytes[1] === 1 && bytes[2] === 0 && bytes[3] === 0)) return 'ttf';
  return null;
}

/** Each format's media type and file extension. */
export const FONT_FORMATS: Record<FontFormat, { type: string; ext: string }> = {
  woff2: { type: 'font/woff2', ext: 'woff2' },
  woff: { type: 'font/woff', ext: 'woff' },
  ttf: { type: 'font/ttf', ext: 'ttf' },
  otf: { type: 'font/otf', ext: 'otf' },
};

/** Where the gateway serves a custom font's file on every host: `/_quire/fonts/files/{sha256}.{ext}`. */
export const FONT_FILES_PATH = '/_quire/fonts/files/';
/** A path of `FONT_FILES_PATH` (what the published pages keep of a custom font's URL). */
export const FONT_FILE_PATH = /^\/_quire\/fonts\/files\/[0-9a-f]{64}\.(?:woff2|woff|ttf|otf)$/;

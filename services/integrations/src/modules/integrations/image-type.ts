import { invalid } from '@quire/kit';

export interface DecodedImage {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';
  extension: string;
}

const startsWith = (b: Buffer, sig: number[], at = 0) =>
  b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);

/** The image type of `bytes` from their magic numbers (SVG: an XML text whose root element is `<svg`); null when none. */
export function sniffImage(bytes: Buffer): Omit<DecodedImage, 'bytes'> | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { contentType: 'image/png', extension: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { contentType: 'image/jpeg', extension: 'jpg' };
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return { contentType: 'image/gif', extension: 'gif' };
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return { contentType: 'image/webp', extension: 'webp' };
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  // Prolog, comments and a doctype may come before the root element.
  const root = head.replace(/^(\s*(<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>))*\s*/i, '');
  if (/^<svg[\s>]/i.test(root)) return { contentType: 'image/svg+xml', extension: 'svg' };
  return null;
}

/** Decodes a base64 image of the publish body; 400 naming `field` when it is not a PNG, JPEG, GIF, WebP or SVG. */
export function decodeImage(base64: string, field: string, maxBytes: number): DecodedImage {
  const bytes = Buffer.from(base64, base64.includes('-') || base64.includes('_') ? 'base64url' : 'base64');
  if (bytes.length === 0) throw invalid(`Invalid request: ${field}: must be base64 content of an image`);
  if (bytes.length > maxBytes) throw invalid(`Invalid request: ${field}: at most ${maxBytes} bytes once decoded`);
  const type = sniffImage(bytes);
  if (!type) throw invalid(`Invalid request: ${field}: not an image (PNG, JPEG, GIF, WebP or SVG expected)`);
  return { bytes, ...type };
}

/**
 * A site's colour kept readable (WCAG AA, 4.5:1): the published pages write the primary colour as text (links, the
 * current page) and as the background of text in the scheme's background colour (buttons). Contrast is symmetric, so
 * one colour that reaches 4.5:1 against the backgrounds serves both uses.
 */

export type Scheme = 'light' | 'dark';

/** The backgrounds the primary colour is read on (site.css: `--bg`, `--subtle`, `--accent-bg`), per scheme. */
export const SCHEME_BACKGROUNDS: Record<Scheme, readonly string[]> = {
  light: ['#ffffff', '#f6f8fa', '#ddf4ff'],
  dark: ['#0d1117', '#151b23', '#0c2d6b'],
};

export const AA_CONTRAST = 4.5;

type Rgb = [number, number, number];
type Hsl = [number, number, number];

/** A hex colour (`#abc` or `#aabbcc`) as 0–255 channels. */
export function hexRgb(hex: string): Rgb {
  const h = hex.slice(1);
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function rgbHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** The WCAG relative luminance of a hex colour. */
export function luminance(hex: string): number {
  const [r, g, b] = hexRgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two hex colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A hex colour as hue (degrees), saturation and lightness (0–1). */
export function hexHsl(hex: string): Hsl {
  const [r, g, b] = hexRgb(hex).map((c) => c / 255) as Rgb;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l];
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s, l];
}

function hslHex([h, s, l]: Hsl): string {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return (l - (c / 2) * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255;
  };
  return rgbHex([f(0), f(8), f(4)]);
}

function readable(hex: string, backgrounds: readonly string[]): boolean {
  return backgrounds.every((bg) => contrastRatio(hex, bg) >= AA_CONTRAST);
}

/**
 * The colour as the scheme can show it: unchanged when it reaches 4.5:1 against every background of the scheme,
 * else the same hue and saturation made darker (light scheme) or lighter (dark scheme), by the smallest step that
 * reaches it. Black and white always do, so there is always an answer.
 */
export function readableColour(hex: string, scheme: Scheme, backgrounds = SCHEME_BACKGROUNDS[scheme]): string {
  if (readable(hex, backgrounds)) return hex;
  const [h, s, l] = hexHsl(hex);
  const step = scheme === 'light' ? -0.005 : 0.005;
  for (let next = l + step; next > 0 && next < 1; next += step) {
    const candidate = hslHex([h, s, next]);
    if (readable(candidate, backgrounds)) return candidate;
  }
  return scheme === 'light' ? '#000000' : '#ffffff';
}

/** `share` (0–1) of the colour `hex` over the background `bg`, as one opaque hex colour (sRGB, as CSS `color-mix`). */
export function mixOver(hex: string, bg: string, share: number): string {
  const [a, b] = [hexRgb(hex), hexRgb(bg)];
  return rgbHex(a.map((c, i) => c * share + b[i]! * (1 - share)) as Rgb);
}

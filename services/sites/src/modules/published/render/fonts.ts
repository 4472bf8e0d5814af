import { createHash } from 'node:crypto';

/**
 * The fonts of GitBook's customization (`styling.font`, `headingFont`, `monospaceFont`), bundled: each is a
 * Fontsource npm package of the gateway, whose latin and latin-ext `woff2` files the gateway serves under
 * `/_quire/site/fonts/{slug}/{file}` (immutable, a year's cache). No page loads a font from anywhere else.
 *
 * ABCFavorit is a commercial font with no free licence: Quire draws Inter in its place. Source Sans Pro is drawn
 * with Source Sans 3, its successor under the same licence.
 */
export interface BundledFont {
  /** The CSS family name the pages declare. */
  family: string;
  /** The npm package holding the files. */
  pkg: string;
  /** The folder name in the URL (the package's name without its scope). */
  slug: string;
  /** A variable font (one file for all weights), or the weights of a static one. */
  weights: 'variable' | number[];
  fallback: string;
}

const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const SERIF = 'Georgia, Cambria, "Times New Roman", serif';
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

const variable = (family: string, pkg: string, fallback = SANS): BundledFont => ({
  family,
  pkg,
  slug: pkg.split('/')[1]!,
  weights: 'variable',
  fallback,
});
const fixed = (family: string, pkg: string, weights: number[], fallback = SANS): BundledFont => ({
  family,
  pkg,
  slug: pkg.split('/')[1]!,
  weights,
  fallback,
});

const inter = variable('Inter', '@fontsource-variable/inter');

/** GitBook's `CustomizationDefaultFont` values, each with what draws it. */
export const TEXT_FONTS = {
  ABCFavorit: inter,
  Inter: inter,
  Roboto: variable('Roboto', '@fontsource-variable/roboto'),
  RobotoSlab: variable('Roboto Slab', '@fontsource-variable/roboto-slab', SERIF),
  OpenSans: variable('Open Sans', '@fontsource-variable/open-sans'),
  SourceSansPro: variable('Source Sans 3', '@fontsource-variable/source-sans-3'),
  Lato: fixed('Lato', '@fontsource/lato', [400, 700]),
  Ubuntu: fixed('Ubuntu', '@fontsource/ubuntu', [400, 500, 700]),
  Raleway: variable('Raleway', '@fontsource-variable/raleway'),
  Merriweather: variable('Merriweather', '@fontsource-variable/merriweather', SERIF),
  Overpass: variable('Overpass', '@fontsource-variable/overpass'),
  NotoSans: variable('Noto Sans', '@fontsource-variable/noto-sans'),
  IBMPlexSerif: fixed('IBM Plex Serif', '@fontsource/ibm-plex-serif', [400, 600, 700], SERIF),
  Poppins: fixed('Poppins', '@fontsource/poppins', [400, 500, 600, 700]),
  FiraSans: fixed('Fira Sans', '@fontsource/fira-sans', [400, 500, 600, 700]),
} as const satisfies Record<string, BundledFont>;

/** GitBook's `CustomizationDefaultMonospaceFont` values. */
export const MONOSPACE_FONTS = {
  FiraCode: variable('Fira Code', '@fontsource-variable/fira-code', MONO),
  IBMPlexMono: fixed('IBM Plex Mono', '@fontsource/ibm-plex-mono', [400, 600, 700], MONO),
  JetBrainsMono: variable('JetBrains Mono', '@fontsource-variable/jetbrains-mono', MONO),
  SourceCodePro: variable('Source Code Pro', '@fontsource-variable/source-code-pro', MONO),
  RobotoMono: variable('Roboto Mono', '@fontsource-variable/roboto-mono', MONO),
  SpaceMono: fixed('Space Mono', '@fontsource/space-mono', [400, 700], MONO),
  DMMono: fixed('DM Mono', '@fontsource/dm-mono', [400, 500], MONO),
  Inconsolata: variable('Inconsolata', '@fontsource-variable/inconsolata', MONO),
} as const satisfies Record<string, BundledFont>;

/** Every bundled font by its URL folder: what the gateway may serve (`/_quire/site/fonts/{slug}/{file}`). */
export const BUNDLED_FONTS: ReadonlyMap<string, BundledFont> = new Map(
  [...Object.values(TEXT_FONTS), ...Object.values(MONOSPACE_FONTS)].map((f) => [f.slug, f]),
);

const SUBSETS = {
  latin:
    'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  'latin-ext':
    'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
} as const;

/** The files of a bundled font (name in its package's `files/`), with the weight and subset each draws. */
export function fontFiles(f: BundledFont): { file: string; weight: string; range: string }[] {
  return Object.entries(SUBSETS).flatMap(([subset, range]) =>
    f.weights === 'variable'
      ? [{ file: `${f.slug}-${subset}-wght-normal.woff2`, weight: '100 900', range }]
      : f.weights.map((w) => ({ file: `${f.slug}-${subset}-${w}-normal.woff2`, weight: String(w), range })),
  );
}

/**
 * A font of the look: a bundled one, or a custom one (`CustomizationFontDefinition`) whose files are on the site's
 * own origin (checked by the caller: the pages' `font-src` is `'self'`).
 */
export type LookFont =
  | { kind: 'bundled'; font: BundledFont }
  | {
      kind: 'custom';
      family: string;
      faces: { weight: number; sources: { url: string; format: 'woff2' | 'woff' | null }[] }[];
      fallback: string;
    };

/** The fonts of a look's text, headings and code; null: the stylesheet's system fonts. */
export interface LookFonts {
  text: LookFont | null;
  heading: LookFont | null;
  mono: LookFont | null;
}

export const NO_FONTS: LookFonts = { text: null, heading: null, mono: null };

/** A CSS string literal (the family names are checked, but a quote, a backslash or `<>` is escaped all the same). */
const cssString = (s: string) => `"${s.replace(/[\\"\n\r<>]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
/** A CSS `url("…")` of a URL or path: characters that could end it or the `<style>` are escaped. */
const cssUrl = (u: string) => `url(${cssString(u)})`;

const faceRules = (font: LookFont, base: string): string[] =>
  font.kind === 'bundled'
    ? fontFiles(font.font).map(
        (f) =>
          `@font-face{font-family:${cssString(font.font.family)};font-style:normal;font-display:swap;font-weight:${f.weight};src:${cssUrl(`${base}/${font.font.slug}/${f.file}`)} format("woff2");unicode-range:${f.range}}`,
      )
    : font.faces.map(
        (face) =>
          `@font-face{font-family:${cssString(font.family)};font-style:normal;font-display:swap;font-weight:${face.weight};src:${face.sources
            .map((s) => `${cssUrl(s.url)}${s.format ? ` format(${cssString(s.format)})` : ''}`)
            .join(',')}}`,
      );

const stackOf = (font: LookFont) =>
  font.kind === 'bundled'
    ? `${cssString(font.font.family)}, ${font.font.fallback}`
    : `${cssString(font.family)}, ${font.fallback}`;

/**
 * The CSS declaring the look's fonts (`@font-face` of the bundled files under `base`, or of a custom font's
 * own-origin files) and drawing the text, the headings and the code with them; '' when none is set.
 */
export function fontCss(fonts: LookFonts, base: string): string {
  const rules: string[] = [];
  const declared = new Set<string>();
  const declare = (font: LookFont) => {
    const key = font.kind === 'bundled' ? font.font.slug : `custom:${font.family}`;
    if (declared.has(key)) return;
    declared.add(key);
    rules.push(...faceRules(font, base));
  };
  if (fonts.text) {
    declare(fonts.text);
    rules.push(`body,button,input,select,textarea{font-family:${stackOf(fonts.text)}}`);
  }
  if (fonts.heading) {
    declare(fonts.heading);
    rules.push(`h1,h2,h3,h4,h5,h6,.site-title{font-family:${stackOf(fonts.heading)}}`);
  }
  if (fonts.mono) {
    declare(fonts.mono);
    rules.push(`code,kbd,pre,samp{font-family:${stackOf(fonts.mono)}}`);
  }
  return rules.join('\n');
}

/** The segment of a site's font stylesheets: `<site>/~fonts/{hash}.css`. */
export const FONT_SHEET_SEGMENT = '~fonts';

/**
 * The stylesheet of a font set: its CSS and the hash naming it (the first 20 hex digits of its SHA-256), so its URL
 * changes with it and the sheet can be cached as immutable; null when no font is set.
 */
export function fontSheet(fonts: LookFonts, base: string): { css: string; hash: string } | null {
  const css = fontCss(fonts, base);
  return css ? { css, hash: createHash('sha256').update(css).digest('hex').slice(0, 20) } : null;
}

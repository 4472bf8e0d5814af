/**
 * The colour mode and the corners of a site's pages (GitBook's `themes` and `styling.corners`), as CSS written after
 * the pages' stylesheet (`site.css`, shared by every site, light and dark by `prefers-color-scheme`).
 */

/** `system`: the pages follow the reader's system; `light` or `dark`: the pages are in that mode only. */
export type ColourScheme = 'system' | 'light' | 'dark';
export type Corners = 'straight' | 'rounded' | 'circular';

/**
 * GitBook forces the default mode when readers may not switch (`toggeable: false`), unless that mode is `system`;
 * when they may, Quire's pages follow the reader's system (a reader's switch is not drawn: see published-sites.md).
 */
export function colourScheme(themes: { default?: string; toggeable?: boolean } | undefined): ColourScheme {
  const mode = themes?.default;
  if (themes?.toggeable !== false) return 'system';
  return mode === 'light' || mode === 'dark' ? mode : 'system';
}

/**
 * The stylesheet's colours of each mode (site.css `:root` and its `prefers-color-scheme: dark` block; the test
 * compares them with the stylesheet): a page in one mode only sets that mode's, whatever the reader's system.
 */
export const SCHEME_PALETTES: Record<'light' | 'dark', Record<string, string>> = {
  light: {
    '--bg': '#ffffff',
    '--fg': '#1f2328',
    '--muted': '#59636e',
    '--border': '#d1d9e0',
    '--subtle': '#f6f8fa',
    '--accent': '#0550ae',
    '--accent-bg': '#ddf4ff',
    '--current': '#0550ae',
    '--info': '#0550ae',
    '--info-bg': '#ddf4ff',
    '--success': '#116329',
    '--success-bg': '#dafbe1',
    '--warning': '#7d4e00',
    '--warning-bg': '#fff8c5',
    '--danger': '#a40e26',
    '--danger-bg': '#ffebe9',
  },
  dark: {
    '--bg': '#0d1117',
    '--fg': '#e6edf3',
    '--muted': '#9198a1',
    '--border': '#3d444d',
    '--subtle': '#151b23',
    '--accent': '#4493f8',
    '--accent-bg': '#0c2d6b',
    '--current': '#79c0ff',
    '--info': '#79c0ff',
    '--info-bg': '#0c2d6b55',
    '--success': '#56d364',
    '--success-bg': '#0f3b1d88',
    '--warning': '#e3b341',
    '--warning-bg': '#4b370088',
    '--danger': '#ff7b72',
    '--danger-bg': '#67060c88',
  },
};

const palette = (mode: 'light' | 'dark') =>
  Object.entries(SCHEME_PALETTES[mode])
    .map(([k, v]) => `${k}:${v};`)
    .join('');

/**
 * The `:root` rules of a page: in `system`, the site's own colours (`light`, `dark`: custom properties) for each
 * mode; in one mode, `color-scheme` and that mode's palette with the site's colours, and no dark media query (code
 * in a dark page is drawn in its dark theme). Empty when there is nothing to change.
 */
export function schemeCss(scheme: ColourScheme, light: string, dark: string): string {
  if (scheme === 'light') return `:root{color-scheme:light;${palette('light')}${light}}`;
  if (scheme === 'dark')
    return `:root{color-scheme:dark;${palette('dark')}${dark}}.shiki,.shiki span{color:var(--shiki-dark)!important;background-color:var(--shiki-dark-bg)!important}`;
  if (!light && !dark) return '';
  return `:root{${light}}@media (prefers-color-scheme: dark){:root{${dark}}}`;
}

/**
 * The corners: `rounded` is the stylesheet's; `straight` squares the boxes, buttons, fields and the sidebar's links;
 * `circular` rounds the boxes more and makes buttons and fields pills.
 */
export function cornersCss(corners: Corners): string {
  if (corners === 'straight')
    return ':root{--radius:0px}.site-logo,.pages a,.variants a,.header-links .menu-list a,.page-cover,img.inline-image,.document :not(pre)>code,kbd{border-radius:0}';
  if (corners === 'circular')
    return ':root{--radius:1rem}.search-form input,.search-form button,.nav-toggle-label,.header-links .button-primary,.header-links .button-secondary,.button,.page-rating button,.announcement-dismiss,.pages a,.variants a{border-radius:999px}';
  return '';
}

const DARK_SOURCE = /<source ([^>]*?)media="\(prefers-color-scheme: dark\)"([^>]*)>/g;

/**
 * A page in one mode only: each image's dark `<source>` (covers, cards, images, logos: `media` of
 * `prefers-color-scheme: dark`, written by the renderers) always chosen in `dark`, dropped in `light`. Text of the
 * page cannot match: its `<` is escaped.
 */
export function forceScheme(page: string, scheme: ColourScheme): string {
  if (scheme === 'system') return page;
  return page.replace(DARK_SOURCE, (_, before: string, after: string) =>
    scheme === 'dark' ? `<source ${before.trimEnd()}${after}>`.replace(/ >$/, '>') : '',
  );
}

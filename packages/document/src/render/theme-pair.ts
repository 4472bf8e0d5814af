import type { ThemeRegistrationAny, ThemeRegistrationRaw } from 'shiki';

/** What the light and the dark theme give one token (hex colours, upper case as shiki gives them). */
export interface ColorPair {
  light: string;
  dark: string;
}

/** Two themes as one: tokenizing with `theme` gives each token the pair of colours it has in the two themes. */
export interface PairedTheme {
  theme: ThemeRegistrationRaw;
  /** Each colour of `theme` (`light-dark(#l, #d)`) as its two colours. */
  colors: ReadonlyMap<string, ColorPair>;
  /** The colour of text no rule colours (the themes' foregrounds), a key of `colors`. */
  foreground: string;
  /** The themes' backgrounds. */
  background: ColorPair;
}

const HEX = /^#[0-9a-f]{3,8}$/i;

type Rule = NonNullable<ThemeRegistrationRaw['settings']>[number];
const rulesOf = (t: ThemeRegistrationAny): Rule[] => t.tokenColors ?? t.settings ?? [];

function hex(value: unknown, what: string): string {
  if (typeof value !== 'string' || !HEX.test(value)) throw new Error(`pairThemes: ${what} is not a hex colour`);
  return value;
}

/** The rule as it is matched (its selectors and font style): what must be the same in both themes. */
const shapeOf = (r: Rule) =>
  JSON.stringify([r.scope ?? null, r.settings.fontStyle ?? null, !!r.settings.foreground, !!r.settings.background]);

/**
 * One theme giving every token the colours two themes give it, so code is tokenized once for both (shiki's
 * `themes` option tokenizes it once per theme). A TextMate theme's rules are matched by their selectors and
 * order alone, so when two themes have the same rules and differ only in their colours (GitHub's light and dark
 * themes do), the same rule wins a token in both: the paired theme has those rules, each coloured with the pair
 * its rule has in the two themes. A colour of the paired theme is `light-dark(#l, #d)` (shiki keeps a colour
 * that is not hex as the theme gives it: its "arbitrary color values"); `colors` maps it back to the pair.
 * Throws when the themes differ in anything but their colours.
 */
export function pairThemes(name: string, light: ThemeRegistrationAny, dark: ThemeRegistrationAny): PairedTheme {
  const lightRules = rulesOf(light);
  const darkRules = rulesOf(dark);
  const colors = new Map<string, ColorPair>();
  const pair = (l: unknown, d: unknown, what: string) => {
    const p = { light: hex(l, `${what} (light)`).toUpperCase(), dark: hex(d, `${what} (dark)`).toUpperCase() };
    const key = `light-dark(${p.light}, ${p.dark})`;
    colors.set(key, p);
    return key;
  };
  if (lightRules.length !== darkRules.length) throw new Error(`pairThemes: the themes have different rules`);
  const settings = lightRules.map((rule, i) => {
    const other = darkRules[i]!;
    if (shapeOf(rule) !== shapeOf(other)) throw new Error(`pairThemes: rule ${i} differs in more than its colours`);
    const s = { ...rule.settings };
    if (s.foreground) s.foreground = pair(rule.settings.foreground, other.settings.foreground, `rule ${i}`);
    if (s.background) s.background = pair(rule.settings.background, other.settings.background, `rule ${i}`);
    return { ...rule, settings: s };
  });
  const fg = (t: ThemeRegistrationAny) => t.fg ?? t.colors?.['editor.foreground'];
  const bg = (t: ThemeRegistrationAny) => t.bg ?? t.colors?.['editor.background'];
  const foreground = pair(fg(light), fg(dark), 'the foreground');
  const background = { light: hex(bg(light), 'the background'), dark: hex(bg(dark), 'the background') };
  return {
    theme: { name, type: 'light', fg: foreground, bg: `light-dark(${background.light}, ${background.dark})`, settings },
    colors,
    foreground,
    background,
  };
}

/** The relative luminance of a `#rrggbb` colour (WCAG 2). */
function luminance(hexColour: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hexColour.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The WCAG contrast ratio of two hex colours (`#rgb` or `#rrggbb`). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(full(a)), luminance(full(b))].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const full = (c: string) =>
  (c.length === 4 ? `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}` : c.slice(0, 7)).toUpperCase();
const mix = (c: string, to: number, t: number) =>
  `#${[1, 3, 5]
    .map((i) => {
      const v = Number.parseInt(c.slice(i, i + 2), 16);
      return Math.round(v + (to - v) * t)
        .toString(16)
        .padStart(2, '0');
    })
    .join('')}`.toUpperCase();

/**
 * `colour` moved toward white (on a dark background) or black (on a light one) by the least step of 1/100 that reaches
 * `ratio` against `background`; as it is when it already does. GitHub's dark theme draws comments `#6A737D` on
 * `#24292E` (3.04:1): they become `#959DA5`-like, 4.5:1, as WCAG asks of text.
 */
export function readableOn(colour: string, background: string, ratio = 4.5): string {
  const c = full(colour);
  const bg = full(background);
  const to = luminance(bg) < 0.5 ? 255 : 0;
  for (let step = 0; step <= 100; step++) {
    const next = mix(c, to, step / 100);
    if (contrastRatio(next, bg) >= ratio) return next;
  }
  return to ? '#FFFFFF' : '#000000';
}

/**
 * The paired theme with every text colour (its rules' foregrounds and its own) readable at `ratio` on the background
 * of its scheme, light and dark; backgrounds (a diff's inserted and deleted lines) stay as they are.
 */
export function readableColors(paired: PairedTheme, ratio = 4.5): PairedTheme {
  const texts = new Set([paired.foreground, ...(paired.theme.settings ?? []).map((r) => r.settings.foreground)]);
  const colors = new Map(paired.colors);
  for (const key of texts) {
    const pair = key ? paired.colors.get(key) : undefined;
    if (!key || !pair) continue;
    colors.set(key, {
      light: readableOn(pair.light, paired.background.light, ratio),
      dark: readableOn(pair.dark, paired.background.dark, ratio),
    });
  }
  return { ...paired, colors };
}

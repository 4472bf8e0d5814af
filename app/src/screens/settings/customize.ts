import type { Customization } from '../../api/settings.ts';

// What the site's customization form and a site space's overrides share.

export type Theme = Customization['styling']['theme'];
export const THEMES: [Theme, string][] = [
  ['clean', 'Clean'],
  ['muted', 'Muted'],
  ['bold', 'Bold'],
  ['gradient', 'Gradient'],
];

/** `#abc` → `#aabbcc`: the form of `<input type="color">`. */
export const long = (hex: string) =>
  hex.length === 4 ? `#${[...hex.slice(1)].map((ch) => ch + ch).join('')}`.toLowerCase() : hex.toLowerCase();

type Styling = Customization['styling'];
/** A default font of GitBook's (the custom fonts, set through the API, are kept as they are). */
export type TextFont = Extract<Styling['font'], string>;
export type MonoFont = Extract<Styling['monospaceFont'], string>;

/** GitBook's default fonts, as the published site draws them (bundled: no font is loaded from elsewhere). */
export const TEXT_FONTS: [TextFont, string][] = [
  ['Inter', 'Inter'],
  ['ABCFavorit', 'ABC Favorit (drawn as Inter)'],
  ['Roboto', 'Roboto'],
  ['RobotoSlab', 'Roboto Slab'],
  ['OpenSans', 'Open Sans'],
  ['SourceSansPro', 'Source Sans (3)'],
  ['Lato', 'Lato'],
  ['Ubuntu', 'Ubuntu'],
  ['Raleway', 'Raleway'],
  ['Merriweather', 'Merriweather'],
  ['Overpass', 'Overpass'],
  ['NotoSans', 'Noto Sans'],
  ['IBMPlexSerif', 'IBM Plex Serif'],
  ['Poppins', 'Poppins'],
  ['FiraSans', 'Fira Sans'],
];
export const MONO_FONTS: [MonoFont, string][] = [
  ['IBMPlexMono', 'IBM Plex Mono'],
  ['FiraCode', 'Fira Code'],
  ['JetBrainsMono', 'JetBrains Mono'],
  ['SourceCodePro', 'Source Code Pro'],
  ['RobotoMono', 'Roboto Mono'],
  ['SpaceMono', 'Space Mono'],
  ['DMMono', 'DM Mono'],
  ['Inconsolata', 'Inconsolata'],
];

export type SocialAccount = Customization['socialAccounts'][number];
export type Platform = SocialAccount['platform'];
export const PLATFORMS: [Platform, string][] = [
  ['github', 'GitHub'],
  ['twitter', 'X (Twitter)'],
  ['linkedin', 'LinkedIn'],
  ['discord', 'Discord'],
  ['slack', 'Slack'],
  ['youtube', 'YouTube'],
  ['mastodon', 'Mastodon'],
  ['bluesky', 'Bluesky'],
  ['instagram', 'Instagram'],
  ['facebook', 'Facebook'],
  ['reddit', 'Reddit'],
  ['tiktok', 'TikTok'],
  ['threads', 'Threads'],
  ['medium', 'Medium'],
];
/** Most social accounts of a site (the API's limit). */
export const SOCIAL_MAX = 10;

export type AIMode = Customization['ai']['mode'];
export const AI_MODES: [AIMode, string][] = [
  ['none', 'None'],
  ['search', 'Search'],
  ['assistant', 'Assistant'],
];

export type CodeTheme = Customization['styling']['codeTheme']['default']['light'];
/** The code themes of GitBook's (Shiki's), by their names. */
export const CODE_THEMES = (
  [
    'default-light',
    'default-dark',
    'monochrome-light',
    'monochrome-dark',
    'andromeeda',
    'aurora-x',
    'ayu-dark',
    'catppuccin-frappe',
    'catppuccin-latte',
    'catppuccin-macchiato',
    'catppuccin-mocha',
    'dark-plus',
    'dracula',
    'dracula-soft',
    'everforest-dark',
    'everforest-light',
    'github-dark',
    'github-dark-default',
    'github-dark-dimmed',
    'github-dark-high-contrast',
    'github-light',
    'github-light-default',
    'github-light-high-contrast',
    'gruvbox-dark-hard',
    'gruvbox-dark-medium',
    'gruvbox-dark-soft',
    'gruvbox-light-hard',
    'gruvbox-light-medium',
    'gruvbox-light-soft',
    'houston',
    'kanagawa-dragon',
    'kanagawa-lotus',
    'kanagawa-wave',
    'laserwave',
    'light-plus',
    'material-theme',
    'material-theme-darker',
    'material-theme-lighter',
    'material-theme-ocean',
    'material-theme-palenight',
    'min-dark',
    'min-light',
    'monokai',
    'night-owl',
    'nord',
    'one-dark-pro',
    'one-light',
    'plastic',
    'poimandres',
    'red',
    'rose-pine',
    'rose-pine-dawn',
    'rose-pine-moon',
    'slack-dark',
    'slack-ochin',
    'snazzy-light',
    'solarized-dark',
    'solarized-light',
    'synthwave-84',
    'tokyo-night',
    'vesper',
    'vitesse-black',
    'vitesse-dark',
    'vitesse-light',
  ] as const satisfies readonly CodeTheme[]
).map((t) => [t, t] as const);
// A theme the contract adds and this list lacks fails the type check here.
const _allThemes: Exclude<CodeTheme, (typeof CODE_THEMES)[number][0]> extends never ? true : never = true;
void _allThemes;

import { CODE_THEMES as CONTRACT_CODE_THEMES } from '@quire/contracts/code-themes';
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
/** The code themes of GitBook's (Shiki's), by their names: the contract's own list. */
export const CODE_THEMES = (CONTRACT_CODE_THEMES satisfies readonly CodeTheme[]).map((t) => [t, t] as const);

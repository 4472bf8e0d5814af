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

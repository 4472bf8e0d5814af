import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { colourScheme, cornersCss, forceScheme, SCHEME_PALETTES, schemeCss } from './theme.ts';

describe('the colour mode of the pages', () => {
  it("follows the reader's system when readers may switch, else GitBook's default mode", () => {
    expect(colourScheme({ default: 'light', toggeable: true })).toBe('system');
    expect(colourScheme({ default: 'dark', toggeable: true })).toBe('system');
    expect(colourScheme({ default: 'light', toggeable: false })).toBe('light');
    expect(colourScheme({ default: 'dark', toggeable: false })).toBe('dark');
    expect(colourScheme({ default: 'system', toggeable: false })).toBe('system');
    expect(colourScheme(undefined)).toBe('system');
  });

  it('writes one mode with its palette and color-scheme, and no dark media query', () => {
    const light = schemeCss('light', '--accent:#0B6E4F;', '--accent:#6FD3A8;');
    expect(light).toMatch(/^:root\{color-scheme:light;--bg:#ffffff;.*--accent:#0B6E4F;\}$/);
    expect(light).not.toContain('prefers-color-scheme');
    expect(light).not.toContain('#6FD3A8');
    const dark = schemeCss('dark', '--accent:#0B6E4F;', '--accent:#6FD3A8;');
    expect(dark).toContain(':root{color-scheme:dark;--bg:#0d1117;');
    expect(dark).toContain('--accent:#6FD3A8;}');
    expect(dark).toContain('.shiki,.shiki span{color:var(--shiki-dark)!important');
    expect(dark).not.toContain('prefers-color-scheme');
    expect(schemeCss('system', '', '')).toBe('');
    expect(schemeCss('system', '--tint:#123456;', '')).toBe(
      ':root{--tint:#123456;}@media (prefers-color-scheme: dark){:root{}}',
    );
  });

  it("knows the stylesheet's colours of both modes", () => {
    const css = readFileSync(new URL('../../../../../../gateway/src/site-assets/site.css', import.meta.url), 'utf8');
    const cut = css.indexOf('@media (prefers-color-scheme: dark)');
    const parts = { light: css.slice(0, cut), dark: css.slice(cut) };
    for (const mode of ['light', 'dark'] as const)
      for (const [name, value] of Object.entries(SCHEME_PALETTES[mode]))
        expect(parts[mode].match(new RegExp(`${name}: (#[0-9a-f]+);`))?.[1], `${mode} ${name}`).toBe(value);
  });

  it("keeps each image's source for the mode of the page", () => {
    const page =
      '<picture><source srcset="/d.png" media="(prefers-color-scheme: dark)"><img src="/l.png" alt=""></picture>' +
      '<code>&lt;source srcset="x" media="(prefers-color-scheme: dark)"&gt;</code>';
    expect(forceScheme(page, 'system')).toBe(page);
    expect(forceScheme(page, 'light')).toBe(
      '<picture><img src="/l.png" alt=""></picture><code>&lt;source srcset="x" media="(prefers-color-scheme: dark)"&gt;</code>',
    );
    expect(forceScheme(page, 'dark')).toContain('<picture><source srcset="/d.png"><img src="/l.png" alt=""></picture>');
    expect(forceScheme(page, 'dark')).toContain('&lt;source srcset="x" media="(prefers-color-scheme: dark)"&gt;');
  });
});

describe('the corners', () => {
  it('squares or rounds the boxes; rounded is the stylesheet', () => {
    expect(cornersCss('rounded')).toBe('');
    expect(cornersCss('straight')).toContain(':root{--radius:0px}');
    expect(cornersCss('circular')).toContain(':root{--radius:1rem}');
    expect(cornersCss('circular')).toContain('.search-form input,');
  });
});

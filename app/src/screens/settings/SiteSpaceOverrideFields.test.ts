import { describe, expect, it } from 'vitest';
import type { Customization } from '../../api/settings.ts';
import { EXTRA_FIELDS, extrasOf, keyOf, putExtras, startOf } from './SiteSpaceOverrideFields.tsx';

/** A customization with what these tests read (the rest is not looked at). */
const site = {
  styling: {
    primaryColor: { light: '#111111', dark: '#eeeeee' },
    corners: 'rounded',
    sidebar: { background: 'default', list: 'default' },
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
  },
  themes: { default: 'light', toggeable: true },
  header: { links: [] },
  footer: { groups: [] },
  trademark: { enabled: true },
  privacyPolicy: {},
} as unknown as Customization;
const field = (key: string) => EXTRA_FIELDS.find((f) => keyOf(f) === key)!;

describe("a site space's remaining overrides", () => {
  it('reads as its own only what differs from the site', () => {
    const space = {
      ...site,
      styling: { ...site.styling, corners: 'circular', tint: { color: { light: '#22aa55', dark: '#115522' } } },
      trademark: { enabled: false },
    } as unknown as Customization;
    const own = extrasOf(site, space);
    expect(own['styling.corners']).toBe('circular');
    expect(own['styling.tint']).toEqual({ light: '#22aa55', dark: '#115522' });
    expect(own['trademark.enabled']).toBe(false);
    expect(own['themes.default']).toBeNull();
    expect(own['privacyPolicy.url']).toBeNull();
    expect(Object.keys(own)).toHaveLength(EXTRA_FIELDS.length);
  });

  it('writes every field at its path: the value (trimmed, under `inner`), or null when off', () => {
    const extras = Object.fromEntries(EXTRA_FIELDS.map((f) => [keyOf(f), null]));
    const body = putExtras(
      { styling: { theme: null }, header: { links: null } },
      {
        ...extras,
        'styling.tint': { light: '#22aa55', dark: '#115522' },
        'styling.sidebar.list': 'pill',
        'header.logo': { light: ' https://a.example/l.png ', dark: 'https://a.example/d.png' },
        'privacyPolicy.url': ' https://a.example/privacy ',
      },
    );
    expect(body).toMatchObject({
      styling: {
        theme: null,
        tint: { color: { light: '#22aa55', dark: '#115522' } },
        corners: null,
        sidebar: { background: null, list: 'pill' },
        codeTheme: { default: null, openapi: null },
      },
      header: { links: null, logo: { light: 'https://a.example/l.png', dark: 'https://a.example/d.png' } },
      footer: { logo: null },
      themes: { default: null, toggeable: null },
      trademark: { enabled: null },
      privacyPolicy: { url: 'https://a.example/privacy' },
      socialPreview: { url: null },
    });
  });

  it("starts an override from the site's value, else from its fallback", () => {
    expect(startOf(site, field('styling.corners'))).toBe('rounded');
    expect(startOf(site, field('styling.tint'))).toEqual({ light: '#111111', dark: '#eeeeee' });
    expect(startOf(site, field('styling.depth'))).toBe('subtle');
    expect(startOf(site, field('header.logo'))).toEqual({ light: '', dark: '' });
    expect(startOf(site, field('privacyPolicy.url'))).toBe('');
    expect(startOf(site, field('trademark.enabled'))).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contrastRatio, hexHsl, readableColour, SCHEME_BACKGROUNDS, type Scheme } from './contrast.ts';

const hueDistance = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

describe('readableColour', () => {
  const hard = ['#aa3300', '#ffff00', '#0000ff', '#777777', '#346ddb', '#000000', '#ffffff'];
  for (const scheme of ['light', 'dark'] as Scheme[]) {
    for (const colour of hard) {
      it(`keeps ${colour} at 4.5:1 or more in ${scheme}, its hue kept`, () => {
        const result = readableColour(colour, scheme);
        expect(result).toMatch(/^#(?:[0-9a-fA-F]{3}){1,2}$/);
        for (const bg of SCHEME_BACKGROUNDS[scheme]) expect(contrastRatio(result, bg)).toBeGreaterThanOrEqual(4.5);
        const [h, s] = hexHsl(colour);
        const [rh, rs] = hexHsl(result);
        if (s > 0 && rs > 0) expect(hueDistance(h, rh)).toBeLessThan(3);
        else expect(rs).toBeLessThan(0.02);
      });
    }
  }

  it('moves the lightness the way the scheme needs, and only as far as needed', () => {
    // The found case: #346ddb scores 3.92:1 on the dark background; it gets lighter, #aa3300 gets lighter too.
    expect(contrastRatio('#346ddb', '#0d1117')).toBeLessThan(4.5);
    expect(hexHsl(readableColour('#346ddb', 'dark'))[2]).toBeGreaterThan(hexHsl('#346ddb')[2]);
    expect(hexHsl(readableColour('#ffff00', 'light'))[2]).toBeLessThan(hexHsl('#ffff00')[2]);
    expect(hexHsl(readableColour('#0000ff', 'dark'))[2]).toBeGreaterThan(hexHsl('#0000ff')[2]);
    // Readable colours are left as they are.
    expect(readableColour('#0B6E4F', 'light')).toBe('#0B6E4F');
    expect(readableColour('#6FD3A8', 'dark')).toBe('#6FD3A8');
    // Just enough: one step back would not be readable.
    const dark = readableColour('#aa3300', 'dark');
    expect(Math.min(...SCHEME_BACKGROUNDS.dark.map((bg) => contrastRatio(dark, bg)))).toBeLessThan(4.8);
  });

  it("knows the stylesheet's backgrounds, light and dark", () => {
    const css = readFileSync(new URL('../../../../../../gateway/src/site-assets/site.css', import.meta.url), 'utf8');
    const dark = css.slice(css.indexOf('@media (prefers-color-scheme: dark)'));
    const light = css.slice(0, css.indexOf('@media (prefers-color-scheme: dark)'));
    const values = (part: string) =>
      ['--bg', '--subtle', '--accent-bg'].map((v) => part.match(new RegExp(`${v}: (#[0-9a-f]+);`))?.[1]);
    expect(values(light)).toEqual(SCHEME_BACKGROUNDS.light);
    expect(values(dark)).toEqual(SCHEME_BACKGROUNDS.dark);
  });
});

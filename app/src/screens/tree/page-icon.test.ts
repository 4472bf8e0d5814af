import { describe, expect, it } from 'vitest';
import { iconSrc } from './page-icon.ts';

describe('iconSrc', () => {
  it("spells a page's icon as the gateway serves it", () => {
    expect(iconSrc('book-open')).toBe('/_quire/icons/book-open.svg');
    expect(iconSrc(' Fa-Solid fa-Rocket ')).toBe('/_quire/icons/rocket.svg');
  });

  it('asks for nothing when the value cannot be an icon name', () => {
    for (const bad of ['', undefined, null, '../x', 'a/b', 'x.svg', 'a_b', 'url(x)', 'a'.repeat(65)])
      expect(iconSrc(bad), String(bad)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { relativePage } from './relative.ts';

const pages = ['intro', 'guide', 'guide/setup', 'guide/setup/linux'].map((path) => ({ path, type: 'document' }));
const byPath = new Map([...pages, { path: 'links', type: 'link' }].map((p) => [p.path, p]));
const at = (current: string, url: string) => {
  const found = relativePage(byPath, current, url);
  return found ? `${found.page.path}${found.suffix}` : null;
};

describe('relativePage', () => {
  it('resolves from the page folder, then from the page itself, keeping ?… and #…', () => {
    expect(at('guide/setup', 'linux.md#apt')).toBe('guide/setup/linux#apt');
    expect(at('guide/setup/linux', '../../intro.md?x=1')).toBe('intro?x=1');
    expect(at('guide', 'setup/README.md')).toBe('guide/setup');
    expect(at('intro', './guide/')).toBe('guide');
  });
  it('names only document pages, and nothing for an empty or unknown path', () => {
    expect(at('intro', 'links.md')).toBeNull();
    expect(at('intro', '#top')).toBeNull();
    expect(at('intro', 'nowhere.md')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_SLUG_LENGTH, slugify, uniqueSlug } from './slug.ts';

describe('slugify', () => {
  it.each([
    ['Getting Started', 'getting-started'],
    ['  Hello,   World!  ', 'hello-world'],
    ['Café crème brûlée', 'cafe-creme-brulee'],
    ['Straße & Œuvre', 'strasse-oeuvre'],
    ["Don't panic — it’s fine", 'dont-panic-its-fine'],
    ['API v2.1 (beta)', 'api-v2-1-beta'],
    ['snake_case and kebab-case', 'snake-case-and-kebab-case'],
    ['Привет мир', 'privet-mir'],
    ['東京', 'dongjing'],
    ['🎉 Launch 🚀', 'launch'],
    ['ＦＵＬＬ　ｗｉｄｔｈ', 'full-width'],
  ])('%j → %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('never gives an empty slug', () => {
    expect(slugify('')).toBe('untitled');
    expect(slugify('!!! ??? 🎉')).toBe('untitled');
  });

  it('gives the fallback asked for when nothing is left (a site, a section, a site space)', () => {
    expect(slugify('🚀', { fallback: 'space' })).toBe('space');
    expect(slugify('Café API — Reference!', { fallback: 'space' })).toBe('cafe-api-reference');
    expect(slugify('Привет', { fallback: 'site' })).toBe('privet');
  });

  it('keeps to 100 characters, ending on a whole word when one ends close', () => {
    const words = slugify('word '.repeat(40));
    expect(words.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(words).toMatch(/^(word-)*word$/);
    const long = slugify('a'.repeat(150));
    expect(long).toBe('a'.repeat(100));
  });
});

describe('uniqueSlug', () => {
  it('returns the slug when free, else the first free numbered one', () => {
    expect(uniqueSlug('intro', new Set())).toBe('intro');
    expect(uniqueSlug('intro', new Set(['intro']))).toBe('intro-2');
    expect(uniqueSlug('intro', new Set(['intro', 'intro-2', 'intro-3']))).toBe('intro-4');
  });

  it('takes any list of taken slugs', () => {
    expect(uniqueSlug('guide', ['guide', 'guide-2'])).toBe('guide-3');
    expect(uniqueSlug('guide', [])).toBe('guide');
    expect(uniqueSlug('guide', { has: (slug: string) => slug === 'guide' })).toBe('guide-2');
  });

  it('stays within 100 characters', () => {
    const slug = 'x'.repeat(100);
    expect(uniqueSlug(slug, new Set([slug]))).toBe(`${'x'.repeat(98)}-2`);
  });
});

import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerIcons } from './icons.ts';

describe('GET /_quire/icons/{name}.svg', () => {
  const app = Fastify();
  registerIcons(app);

  it('serves an icon of Font Awesome Free with a long cache', async () => {
    const res = await app.inject('/_quire/icons/book-open.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toMatch(/^<svg [^>]*viewBox="0 0 512 512"/);
    expect(res.body).toContain('fill="currentColor"');
  });

  it('answers 404 for an unknown name, another spelling, or a path out of the folder', async () => {
    for (const url of [
      '/_quire/icons/no-such-icon-at-all.svg',
      '/_quire/icons/Book-Open.svg',
      '/_quire/icons/fa-book-open.svg',
      '/_quire/icons/book-open',
      '/_quire/icons/..%2F..%2Fpackage.json',
      '/_quire/icons/..%2Fsolid%2Fbook-open.svg',
      '/_quire/icons/../package.json',
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<svg');
    }
  });
});

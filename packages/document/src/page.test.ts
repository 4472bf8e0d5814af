import { describe, expect, it } from 'vitest';
import { html, instancePage } from './html.ts';

describe('the instance page layout', () => {
  it('wraps a body in the one page of the instance, its title and every string escaped', () => {
    const page = instancePage({
      title: '<script>alert(1)</script>',
      body: html`<p>${'"><img src=x>'}</p>`,
      kind: 'error-page',
    }).value;
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; · Quire</title>');
    expect(page).toContain('<link rel="stylesheet" href="/_quire/site/site-v1.css">');
    expect(page).toContain(
      '<main id="content" class="error-page"><h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1><p>&quot;&gt;&lt;img src=x&gt;</p></main>',
    );
    expect(page).not.toMatch(/<script|<img/);
    expect(instancePage({ title: 'A', body: 'x < y' }).value).toContain('<main id="content"><h1>A</h1>x &lt; y</main>');
  });
});

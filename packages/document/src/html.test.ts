import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { esc, html, join, raw, safeUrl } from './html.ts';

describe('html escaping', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const title = `<script>alert("x")</script> & 'quotes'`;
    expect(html`<p title="${title}">${title}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</p>',
    );
    expect(html`<ul>${['<a>', html`<li>${'b&'}</li>`]}</ul>`.value).toBe('<ul>&lt;a&gt;<li>b&amp;</li></ul>');
    expect(html`${null}${undefined}${false}${0}`.value).toBe('0');
    expect(join([raw('<br>'), 'x<'], '|').value).toBe('<br>|x&lt;');
  });

  it('never lets a string open a tag or leave a quoted attribute', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = esc(s);
        expect(out).not.toMatch(/[<>"']/);
        expect(out.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
      }),
    );
  });

  it('keeps only http(s), mailto, tel and relative URLs', () => {
    for (const ok of [
      'https://example.com/a?b#c',
      'http://x.test',
      'mailto:a@b.c',
      'tel:+331',
      '/sites/docs/a',
      'guide/setup',
      '#anchor',
      '?q=1',
      '//cdn.test/x',
    ]) {
      expect(safeUrl(ok), ok).toBe(ok);
    }
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:x',
      '\u0001javascript:x',
      'data:text/html,<script>',
      'vbscript:x',
      'file:///etc/passwd',
    ]) {
      expect(safeUrl(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

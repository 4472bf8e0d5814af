import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { pickMainContent, readHtmlPage } from './html-page.ts';

const html = (body: string, head = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const main = (source: string) => {
  const $ = load(source);
  return pickMainContent($).text().replace(/\s+/g, ' ').trim();
};

describe('pickMainContent', () => {
  it('takes <main>, narrowed to its one <article>', () => {
    expect(main(html('<header>Site</header><main><p>Body</p></main><footer>Foot</footer>'))).toBe('Body');
    expect(main(html('<main><div class="toc">On this page</div><article><p>Body</p></article></main>'))).toBe('Body');
    expect(main(html('<main><article><p>One</p></article> <article><p>Two</p></article></main>'))).toBe('One Two');
  });

  it('takes [role=main], else the page’s only <article>', () => {
    expect(main(html('<div role="main"><p>Body</p></div><div>Other</div>'))).toBe('Body');
    expect(main(html('<div class="sidebar">Links</div><article><p>Body</p></article>'))).toBe('Body');
  });

  it('else takes the body without its header, footer, asides and navigation', () => {
    expect(
      main(html('<header>Site</header><nav>Menu</nav><div><p>Body</p><aside>Ad</aside></div><footer>Foot</footer>')),
    ).toBe('Body');
  });

  it('skips an empty <main> and drops scripts, styles, forms, hidden elements wherever they are', () => {
    expect(
      main(
        html(
          '<main> </main><div><p>Body</p><script>x()</script><style>p{}</style><form><input></form><span hidden>h</span><i aria-hidden="true">i</i><p style="display: none">n</p></div>',
        ),
      ),
    ).toBe('Body');
  });
});

describe('readHtmlPage', () => {
  const source = html(
    `<header><a href="/">Home</a></header>
     <nav><a href="guide.html">Guide</a> <a href="https://other.io/x">Other</a> <a href="mailto:ann@acme.io">Mail</a></nav>
     <main><p class="crumbs">Docs</p><h1>Getting <em>started</em> <a class="anchor" href="#top">#</a></h1>
       <p>See <a href="guide.html#install">the guide</a>, <a href="#usage">usage</a> and <a href="javascript:void(0)">nothing</a>.</p>
       <h2 id="usage">Usage <a href="#usage">¶</a></h2>
       <img src="img/a.png" alt="A"><img src="data:image/gif;base64,R0lGOD" data-src="/img/lazy.png" alt="Lazy"><img srcset="/img/small.png 1x, /img/big.png 2x" alt="Set">
       <figure><img src="b.png" alt="B"><figcaption>The <b>B</b> diagram</figcaption></figure></main>`,
    '<title>Getting started | Acme</title><meta name="description" content=" How to   start "><link rel="canonical" href="/docs/start">',
  );
  const page = readHtmlPage(Buffer.from(source), 'https://acme.io/docs/start.html');

  it('reads the title from the first <h1> (without its permalink), the description and the canonical URL', () => {
    expect(page.title).toBe('Getting started');
    expect(page.description).toBe('How to start');
    expect(page.canonical).toBe('https://acme.io/docs/start');
  });

  it('lists every http(s) link of the page, navigation included, absolute', () => {
    expect(page.links).toEqual([
      'https://acme.io/',
      'https://acme.io/docs/guide.html',
      'https://other.io/x',
      'https://acme.io/docs/start.html#top',
      'https://acme.io/docs/guide.html#install',
      'https://acme.io/docs/start.html#usage',
      'https://acme.io/docs/start.html#usage',
    ]);
  });

  it('keeps the content only, without the title <h1> or heading permalinks, its URLs absolute, lazy images resolved', () => {
    const $ = load(page.content, null, false);
    expect($('h1').length).toBe(0);
    expect($('h2').text().trim()).toBe('Usage');
    expect(
      $('a')
        .map((_, a) => $(a).attr('href') ?? '(none)')
        .get(),
    ).toEqual(['https://acme.io/docs/guide.html#install', '#usage', '(none)']);
    expect(page.images).toEqual([
      'https://acme.io/docs/img/a.png',
      'https://acme.io/img/lazy.png',
      'https://acme.io/img/small.png',
      'https://acme.io/docs/b.png',
    ]);
    expect($('figure img').attr('title')).toBe('The B diagram');
    expect($('figcaption').length).toBe(0);
    expect(page.content).not.toContain('Home');
  });

  it('falls back to <title> for the title, resolves against <base href>, and decodes the declared charset', () => {
    const latin = Buffer.concat([
      Buffer.from('<html><head><title>Caf'),
      Buffer.from([0xe9]),
      Buffer.from('</title><base href="https://cdn.acme.io/v2/"></head><body><p><a href="x">x</a></p></body></html>'),
    ]);
    const read = readHtmlPage(latin, 'https://acme.io/docs/', 'iso-8859-1');
    expect(read.title).toBe('Café');
    expect(read.links).toEqual(['https://cdn.acme.io/v2/x']);
    expect(readHtmlPage('<p>caf\u00e9</p>', 'https://acme.io/').title).toBeUndefined();
  });
});

describe('readHtmlPage: what scripts would show is kept for the blocks it makes', () => {
  const read = (body: string) => htmlToMarkdown(readHtmlPage(html(body), 'https://acme.io/docs/').content);

  it('keeps every panel of a tab widget, hidden ones and button tabs included', () => {
    const tabs =
      '<main><div class="tabs-container"><ul role="tablist"><li><button role="tab" aria-controls="a" aria-selected="true">npm</button></li>' +
      '<li><button role="tab" aria-controls="b">yarn</button></li></ul><div role="tabpanel" id="a"><p>npm i</p></div>' +
      '<div role="tabpanel" id="b" hidden><p>yarn add</p></div></div></main>';
    expect(read(tabs)).toBe(
      '{% tabs %}\n{% tab title="npm" %}\nnpm i\n{% endtab %}\n\n{% tab title="yarn" %}\nyarn add\n{% endtab %}\n{% endtabs %}',
    );
  });

  it('keeps MathJax 2 TeX (scripts otherwise dropped) and a figure caption as the image caption', () => {
    const body =
      '<main><p>Area <script type="math/tex">\\pi r^2</script>.</p><script type="math/tex; mode=display">e^{i\\pi}=-1</script>' +
      '<figure><img src="/d.png" alt="D"><figcaption>The diagram</figcaption></figure></main>';
    expect(read(body)).toBe('Area $$\\pi r^2$$.\n\n$$\ne^{i\\pi}=-1\n$$\n\n![D](https://acme.io/d.png "The diagram")');
  });

  it('keeps an aside that is a note when the content is the whole body, and drops the others', () => {
    expect(read('<div><p>Body</p><aside class="note"><p>Mind this.</p></aside><aside>Ad</aside></div>')).toBe(
      'Body\n\n{% hint style="info" %}\nMind this.\n{% endhint %}',
    );
  });
});

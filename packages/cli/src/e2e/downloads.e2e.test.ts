import { beforeAll, describe, expect, it } from 'vitest';
import { DownloadSigner, type RunningService } from '@quire/kit';
import { usePlatform } from './harness.ts';

/** Signed download links served by the gateway without the API token, over both transports. */
describe.each(['in-process', 'http'] as const)('downloads (%s transport)', (transport) => {
  const p = usePlatform({ transport });
  let content: RunningService;
  /** The platform's address in place of the public URL (`http://quire.test`) the link was built on. */
  const local = (url: string) => url.replace('http://quire.test', p.url);
  const errorOf = async (res: Response) => ({
    status: res.status,
    type: res.headers.get('content-type'),
    body: await res.json(),
  });

  beforeAll(async () => {
    content = p.platform.services.find((s) => s.name === 'content')!;
  });

  it('serves the bytes with the download headers, no token needed', async () => {
    const bytes = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
      Buffer.from(transport),
    ]);
    const { key, size } = await content.deps.blobs.put(bytes, 'application/pdf');
    const url = await content.deps.downloads.url({
      key,
      filename: 'Rapport "été"\r\nX-Injected: 1.pdf',
      contentType: 'application/pdf',
    });
    expect(url).toMatch(/^http:\/\/quire\.test\/v1\/downloads\/[\w-]+\.[\w-]+\.[\w-]+$/);

    const res = await fetch(local(url));
    expect(res.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), bytes)).toBe(0);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(size));
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Rapport _ete___X-Injected: 1.pdf"; filename*=UTF-8''Rapport%20%22%C3%A9t%C3%A9%22__X-Injected%3A%201.pdf`,
    );
    expect(res.headers.get('x-injected')).toBeNull();
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(3590);
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves an uploaded HTML file as an attachment sandboxed by its Content-Security-Policy', async () => {
    const { key } = await content.deps.blobs.put(
      Buffer.from(`<script>alert(document.cookie)</script> ${transport}`),
      'text/html',
    );
    const res = await fetch(
      local(await content.deps.downloads.url({ key, filename: 'x.html', contentType: 'text/html' })),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="x\.html"/);
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the content type the link names, with the remaining lifetime as max-age', async () => {
    const { key } = await content.deps.blobs.put(Buffer.from('openapi: 3.1.0\n'), 'text/plain');
    const res = await fetch(
      local(
        await content.deps.downloads.url({
          key,
          filename: 'spec.yaml',
          contentType: 'application/yaml',
          ttlMs: 120_000,
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(await res.text()).toBe('openapi: 3.1.0\n');
    expect(Number(/max-age=(\d+)/.exec(res.headers.get('cache-control')!)![1])).toBeLessThanOrEqual(120);
  });

  it('answers 404 for a tampered or foreign link, in the error shape', async () => {
    const { key } = await content.deps.blobs.put(Buffer.from(`tamper ${transport}`), 'text/plain');
    const url = local(await content.deps.downloads.url({ key, filename: 'a.txt', contentType: 'text/plain' }));
    const token = url.split('/').at(-1)!;
    const [header, claims, sig] = token.split('.') as [string, string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const foreign = await new DownloadSigner('some-other-deployment-secret-0123456789').signDownload({
      service: 'content',
      key,
      filename: 'a.txt',
      contentType: 'text/plain',
    });
    for (const bad of [
      `${header}.${flip(claims, 5)}.${sig}`,
      `${header}.${claims}.${flip(sig, sig.length - 1)}`,
      `${header}.${claims}.${sig}x`,
      'garbage',
      foreign.split('/').at(-1)!,
    ]) {
      const res = await fetch(`${p.url}/v1/downloads/${bad}`);
      expect(await errorOf(res)).toEqual({
        status: 404,
        type: 'application/json; charset=utf-8',
        body: { error: { code: 404, message: 'Download link not found' } },
      });
    }
  });

  it('answers 410 once the link has expired', async () => {
    const { key } = await content.deps.blobs.put(Buffer.from(`expiry ${transport}`), 'text/plain');
    const link = { key, filename: 'a.txt', contentType: 'text/plain' };
    const signedLongAgo = await content.deps.downloads.url(link, Date.now() - 2 * 3600_000);
    const tiny = await content.deps.downloads.url({ ...link, ttlMs: 1 });
    await new Promise((r) => setTimeout(r, 5));
    for (const url of [signedLongAgo, tiny]) {
      expect(await errorOf(await fetch(local(url)))).toEqual({
        status: 410,
        type: 'application/json; charset=utf-8',
        body: { error: { code: 410, message: 'This download link has expired' } },
      });
    }
  });

  it('answers 404 when the blob is gone, or is not the named service’s', async () => {
    const { key } = await content.deps.blobs.put(Buffer.from(`gone ${transport}`), 'text/plain');
    const url = local(await content.deps.downloads.url({ key, filename: 'a.txt', contentType: 'text/plain' }));
    const sites = p.platform.services.find((s) => s.name === 'sites')!;
    const asSites = local(await sites.deps.downloads.url({ key, filename: 'a.txt', contentType: 'text/plain' }));
    expect((await fetch(url)).status).toBe(200);
    expect(await errorOf(await fetch(asSites))).toMatchObject({
      status: 404,
      body: { error: { code: 404, message: 'File not found' } },
    });
    await content.deps.blobs.delete(key);
    expect(await errorOf(await fetch(url))).toMatchObject({
      status: 404,
      body: { error: { code: 404, message: 'File not found' } },
    });
  });

  // Only the HTTP transport has a socket to knock on.
  if (transport === 'http') {
    it('keeps the services’ blob route closed to calls without a signed actor', async () => {
      const { key } = await content.deps.blobs.put(Buffer.from('internal only'), 'text/plain');
      const direct = `${p.platform.serviceUrls.content}/blobs/${key}`;
      expect(await errorOf(await fetch(direct))).toMatchObject({ status: 401, body: { error: { code: 401 } } });
      expect((await fetch(direct, { headers: { 'x-quire-actor': 'forged.header' } })).status).toBe(401);
    });
  }
});

import { createServer, type Server } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { useResource } from './resource.ts';

/** A response of a test web site: a body with its content type (`text/html` for a string), or a redirect. */
export interface WebResource {
  body?: string | Buffer;
  type?: string;
  status?: number;
  /** A redirect (301 unless `status` says otherwise). */
  location?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface WebSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request path (with its query), in the order received. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A small web site on a loopback port for tests that fetch (website import, files given by URL): each path
 * (with its query) answers its resource, anything else a 404 page.
 */
export async function serveWebSite(resources: Record<string, WebResource | string>): Promise<WebSite> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const found = resources[path];
    const r: WebResource =
      typeof found === 'string'
        ? { body: found }
        : (found ?? { status: 404, body: '<!doctype html><title>Not found</title><h1>Not found</h1>' });
    setTimeout(() => {
      if (r.location) {
        res.writeHead(r.status ?? 301, { location: r.location }).end();
        return;
      }
      const body = r.body ?? '';
      res.writeHead(r.status ?? 200, {
        'content-type': r.type ?? (typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/octet-stream'),
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    }, r.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `serveWebSite(resources)` for one test file (or `describe` block): up in `beforeAll`, closed in `afterAll`. */
export function useWebSite(resources: Record<string, WebResource | string>): WebSite {
  return useResource(
    () => serveWebSite(resources),
    (site) => site.close(),
  );
}

/** A real PNG image (RGB, one color) of the given size. */
export function pngImage(width: number, height: number, rgb: [number, number, number] = [40, 110, 200]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

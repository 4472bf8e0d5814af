import { connect, type Socket } from 'node:net';
import type { Outcome, RawRequest, RawResponse } from './http.ts';

/**
 * Sends a request over a fresh keep-alive TCP connection exactly as given (each character of the path one
 * byte, as latin1): for request lines an HTTP client refuses or that the server's parser rejects, and for
 * oversized requests. Unless the answer says `Connection: close`, a second request follows on the same
 * connection, as any keep-alive client would send: a server that answers and then drops the connection
 * resets it, and that is reported as `reuse` on the request that caused it.
 */
export async function sendOverSocket(baseUrl: string, req: RawRequest, timeoutMs: number): Promise<Outcome> {
  const { hostname, port, host } = new URL(baseUrl);
  const conn = new Connection(connect(Number(port), hostname), timeoutMs);
  try {
    const body = Buffer.from(req.body ?? '', 'utf8');
    const lines = [
      `${req.method} ${req.path} HTTP/1.1`,
      `host: ${host}`,
      ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`),
    ];
    if (req.body !== undefined) lines.push(`content-length: ${body.length}`);
    conn.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
    const first = await conn.response();
    if ('failure' in first) return first;
    if (first.closes) return { response: first.response };
    conn.write(Buffer.from(`GET /v1/ HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`, 'latin1'));
    const next = await conn.response();
    if ('failure' in next) return { response: first.response, reuse: next.failure };
    return { response: first.response };
  } finally {
    conn.close();
  }
}

type Failure = { code: string; message: string };
type Answer = { response: RawResponse; closes: boolean } | { failure: Failure };

/** Reads HTTP/1.1 responses off a socket, one after another. */
class Connection {
  private buffer = Buffer.alloc(0);
  private ended: Failure | undefined;
  private wake: () => void = () => {};
  private readonly socket: Socket;

  constructor(socket: Socket, timeoutMs: number) {
    this.socket = socket;
    const end = (failure: Failure) => {
      this.ended ??= failure;
      this.wake();
    };
    socket.setTimeout(timeoutMs, () => end({ code: 'TIMEOUT', message: `no answer in ${timeoutMs} ms` }));
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('end', () =>
      end({ code: 'NO_RESPONSE', message: 'the server closed the connection without a complete HTTP response' }),
    );
    socket.on('error', (err: NodeJS.ErrnoException) => end({ code: err.code ?? 'SOCKET', message: err.message }));
  }

  write(bytes: Buffer): void {
    if (!this.ended) this.socket.write(bytes);
  }

  async response(): Promise<Answer> {
    for (;;) {
      const parsed = parseResponse(this.buffer, this.ended !== undefined);
      if (parsed) {
        this.buffer = this.buffer.subarray(parsed.size);
        return { response: parsed.response, closes: parsed.closes };
      }
      if (this.ended) return { failure: this.ended };
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The first complete response in `raw` (Content-Length, chunked, or up to the end once the server closed), and its size. */
function parseResponse(
  raw: Buffer,
  ended: boolean,
): { response: RawResponse; closes: boolean; size: number } | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1];
  if (!status) return undefined;
  const headers = new Map(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const rest = raw.subarray(end + 4);
  const length = headers.get('content-length');
  const chunked = headers.get('transfer-encoding')?.toLowerCase() === 'chunked';
  const body =
    length !== undefined
      ? rest.length >= Number(length)
        ? { bytes: rest.subarray(0, Number(length)), size: Number(length) }
        : undefined
      : chunked
        ? dechunk(rest)
        : ended
          ? { bytes: rest, size: rest.length }
          : undefined;
  if (!body) return undefined;
  const response = {
    status: Number(status),
    contentType: headers.get('content-type'),
    text: body.bytes.toString('utf8'),
  };
  return { response, closes: headers.get('connection')?.toLowerCase() === 'close', size: end + 4 + body.size };
}

function dechunk(raw: Buffer): { bytes: Buffer; size: number } | undefined {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) return raw.length >= eol + 4 ? { bytes: Buffer.concat(parts), size: eol + 4 } : undefined;
    if (raw.length < eol + 2 + size + 2) return undefined;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

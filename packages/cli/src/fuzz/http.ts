import { Client, errors } from 'undici';
import { sendOverSocket } from './socket.ts';

export interface RawRequest {
  method: string;
  /** Sent byte for byte (fetch would normalise or refuse malformed escapes). */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface RawResponse {
  status: number;
  contentType: string | undefined;
  text: string;
}

export interface SocketFailure {
  code: string;
  message: string;
}

/**
 * What came back: a response (and, when the request went alone over a socket, how the next request on that
 * keep-alive connection failed, if it did), or the socket-level failure instead of a response.
 */
export type Outcome = { response: RawResponse; reuse?: SocketFailure } | { failure: SocketFailure };

const TIMEOUT_MS = 15_000;
/** Bytes outside printable ASCII in a request line: undici refuses some, the server's parser rejects the others. */
const RAW_BYTES = /[^\u0021-\u007e]/;

/**
 * One keep-alive connection to the platform, requests one at a time (so a run is reproducible). A request
 * `alone` (oversized) or with raw bytes in its request line goes over a connection of its own, where the
 * server is expected to answer and then either say `Connection: close` or keep the connection usable.
 */
export class RawClient {
  private readonly baseUrl: string;
  private readonly client: Client;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
    this.client = new Client(baseUrl, { headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS, pipelining: 1 });
  }

  async send(req: RawRequest, alone = false): Promise<Outcome> {
    if (alone || RAW_BYTES.test(req.path)) return sendOverSocket(this.baseUrl, req, TIMEOUT_MS);
    try {
      const res = await this.client.request({
        method: req.method as 'GET',
        path: req.path,
        headers: req.headers,
        body: req.body,
      });
      const text = await res.body.text();
      const type = res.headers['content-type'];
      return { response: { status: res.statusCode, contentType: Array.isArray(type) ? type.join(', ') : type, text } };
    } catch (err) {
      // A request the client itself refuses is a bug of the generator, not of the platform.
      if (err instanceof errors.InvalidArgumentError) throw err;
      const e = err as { code?: string; message?: string; cause?: { code?: string } };
      return { failure: { code: e.cause?.code ?? e.code ?? 'UNKNOWN', message: e.message ?? String(err) } };
    }
  }

  /** A JSON call that must succeed (seeding). */
  async json<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const out = await this.send({ method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!('response' in out) || out.response.status >= 300)
      throw new Error(`seeding: ${method} ${path} failed: ${JSON.stringify(out)}`);
    return JSON.parse(out.response.text) as T;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ops, type Actor } from '@quire/contracts';
import { ACTOR_HEADER, toPublicError, type RunningService, type ServiceClients } from '@quire/kit';
import type { ActorResolver } from './auth.ts';
import { parseCookies } from './published.ts';
import { SESSION_COOKIE } from './session-auth.ts';

/** The live collaboration endpoint (Quire only): a WebSocket served by the content service. */
export const COLLAB_PATH = '/v1/collab';

/** The headers of a WebSocket handshake handed on to the content service (all others are dropped). */
const HANDSHAKE = [
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'user-agent',
];

export interface CollabForwarding {
  clients: ServiceClients;
  resolver: ActorResolver;
  publicUrl: string;
  /** The content service in this process (standalone): the upgrade is handed to it, no socket opened. */
  local?: RunningService | undefined;
  /** Else its base URL: the handshake is forwarded over HTTP. */
  contentUrl?: string | undefined;
}

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${code}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * The member a handshake comes from: `Authorization: Bearer <API token>` (as on `/v1`), else the sign-in session's
 * cookie, accepted only from a page of this instance (`Origin` the public URL's, or the request's own host): a
 * WebSocket is not bound by CORS, so another site must not open one with a visitor's cookie.
 */
async function actorOf(req: IncomingMessage, deps: CollabForwarding, requestId: string): Promise<Actor | null> {
  const authorization = req.headers.authorization;
  if (authorization) return (await deps.resolver.resolve(authorization, requestId)).actor;
  const cookie = parseCookies(req.headers.cookie)[SESSION_COOKIE];
  if (!cookie || cookie.length > 4096) return null;
  const origin = req.headers.origin;
  const allowed = [new URL(deps.publicUrl).origin, `http://${req.headers.host}`, `https://${req.headers.host}`];
  if (origin === undefined || !allowed.includes(origin)) return null;
  const { actor } = await deps.clients.asService(ops.resolveSession, { cookie }, requestId);
  return actor;
}

/** Forwards the handshake to the content service over HTTP and splices the two sockets once it switches protocols. */
function forwardOverHttp(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  url: string,
  headers: Record<string, string>,
) {
  const upstream = httpRequest(`${url}${COLLAB_PATH}`, {
    method: 'GET',
    headers: { ...headers, connection: 'Upgrade', upgrade: 'websocket' },
  });
  upstream.on('upgrade', (res, proxied, proxiedHead) => {
    const lines = [`HTTP/1.1 101 Switching Protocols`];
    for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (proxiedHead.length) socket.write(proxiedHead);
    if (head.length) proxied.write(head);
    proxied.on('error', () => socket.destroy());
    socket.on('error', () => proxied.destroy());
    proxied.pipe(socket).pipe(proxied);
  });
  upstream.on('response', (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      socket.end(
        `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  });
  upstream.on('error', () => refuse(socket, 503, 'unavailable', 'The collaboration service is unavailable'));
  upstream.end();
  void req;
}

/**
 * `GET /v1/collab` upgraded to a WebSocket (Quire only): live collaboration on change requests' pages (Hocuspocus'
 * protocol; see docs/collaboration.md). The gateway authenticates the handshake like a `/v1` call (bearer token, or
 * the session cookie from the app's own origin), refuses an anonymous one (401), and hands it to the content service
 * with the member's signed actor in place of the credentials.
 */
export function registerCollabForwarding(app: FastifyInstance, deps: CollabForwarding): void {
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if ((req.url ?? '').split('?')[0] !== COLLAB_PATH)
      return refuse(socket, 404, 'not_found', 'No WebSocket endpoint here');
    handshake(req, socket, head, deps).catch(() => refuse(socket, 503, 'unavailable', 'Live editing is unavailable'));
  });
}

async function handshake(req: IncomingMessage, socket: Duplex, head: Buffer, deps: CollabForwarding): Promise<void> {
  const requestId = randomUUID();
  let actor: Actor | null;
  try {
    actor = await actorOf(req, deps, requestId);
  } catch (err) {
    const pub = toPublicError(err);
    return refuse(socket, pub.status, pub.reason, pub.message);
  }
  if (actor?.kind !== 'user') return refuse(socket, 401, 'unauthenticated', 'Live editing needs a signed-in member');
  const headers: Record<string, string> = { [ACTOR_HEADER]: (await deps.clients.sign(actor)).header };
  for (const name of HANDSHAKE) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (deps.local?.upgrade) {
    delete req.headers.authorization;
    delete req.headers.cookie;
    Object.assign(req.headers, headers);
    req.url = COLLAB_PATH;
    return deps.local.upgrade(req, socket, head);
  }
  if (!deps.contentUrl) return refuse(socket, 503, 'unavailable', 'The collaboration service is unavailable');
  forwardOverHttp(req, socket, head, deps.contentUrl, headers);
}

import { createHash } from 'node:crypto';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import type { OpenAPISpecProcessingErrorCode } from '@quire/contracts';
import { DomainError, guardedFetch } from '@quire/kit';
import type { OpenAPIFilesystem } from './openapi-spec.entity.ts';

/** Why a specification could not be processed: a code of the contract and the message a user reads. */
export class OpenAPIProcessingError extends Error {
  readonly code: OpenAPISpecProcessingErrorCode;
  constructor(code: OpenAPISpecProcessingErrorCode, message: string) {
    super(message.slice(0, 2_000));
    this.name = 'OpenAPIProcessingError';
    this.code = code;
  }
}

export interface OpenAPIFetchLimits {
  /** Each fetch (the entry document, each file a `$ref` reaches). */
  fetchTimeoutMs: number;
  /** Every file added up. */
  maxBytes: number;
  /** The entry document included. */
  maxFiles: number;
  allowPrivate: boolean;
  allowPublic: boolean;
}

/** Where a specification comes from: a URL, or the document itself. */
export type OpenAPISourceInput = { url: string } | { text: string };

/** A processed specification: the entry document's bytes (for the blob store) and every document parsed. */
export interface ProcessedOpenAPI {
  /** SHA-256 over every file (names and bytes): the same hash means the same specification. */
  hash: string;
  entry: { bytes: Buffer; filename: string; contentType: string };
  filesystem: OpenAPIFilesystem;
}

/** The base of a document given as text: relative `$ref`s have nothing to resolve against. */
const TEXT_BASE = 'https://text.quire.invalid/';

/**
 * Fetches (through the guarded client), parses (YAML or JSON) and validates a specification as OpenAPI
 * 3.0/3.1 or Swagger 2.0, following the external `$ref`s of every document (bounded in count and size).
 * Throws `OpenAPIProcessingError` for what the user must fix (FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR);
 * any other error is the platform's.
 */
export async function processOpenAPISource(
  source: OpenAPISourceInput,
  limits: OpenAPIFetchLimits,
): Promise<ProcessedOpenAPI> {
  const budget = byteBudget(limits.maxBytes);
  const entry = await readEntry(source, limits, budget);
  const files = await fetchReferenced(entry, limits, budget);
  await validate(entry.url, entry.doc, files);
  const { hash, filesystem } = filesystemOf(stripHash(entry.url), files);
  return {
    hash,
    entry: {
      bytes: entry.bytes,
      filename: filesystem.entrypoint,
      contentType: looksLikeJson(entry.bytes.toString('utf8')) ? 'application/json' : 'application/yaml',
    },
    filesystem,
  };
}

/** The files of a specification by URL without fragment: their bytes and parsed documents. */
type SpecFiles = Map<string, { bytes: Buffer; doc: unknown }>;

/** The bytes the files may still take: `take` counts a file's (and throws past `maxBytes`), `left` is what remains. */
function byteBudget(maxBytes: number) {
  let left = maxBytes;
  return {
    left: () => left,
    take(bytes: Buffer, what: string) {
      left -= bytes.length;
      if (left < 0)
        throw new OpenAPIProcessingError(
          'FETCH_ERROR',
          `The specification is larger than ${maxBytes} bytes (at ${what})`,
        );
    },
  };
}
type ByteBudget = ReturnType<typeof byteBudget>;

/** The entry document: its URL (after redirects; a made-up one for a text), its bytes and what they parse to. */
async function readEntry(
  source: OpenAPISourceInput,
  limits: OpenAPIFetchLimits,
  budget: ByteBudget,
): Promise<{ url: string; bytes: Buffer; doc: unknown }> {
  let url: string;
  let bytes: Buffer;
  if ('url' in source) {
    const res = await fetchFile(source.url, limits, budget.left());
    url = res.url;
    bytes = res.body;
  } else {
    bytes = Buffer.from(source.text, 'utf8');
    url = `${TEXT_BASE}${looksLikeJson(source.text) ? 'openapi.json' : 'openapi.yaml'}`;
  }
  budget.take(bytes, 'the entry document');
  return { url, bytes, doc: parseDocument(bytes, 'the entry document') };
}

/** Every file reachable through `$ref`s from the entry document (the first), breadth first. */
async function fetchReferenced(
  entry: { url: string; bytes: Buffer; doc: unknown },
  limits: OpenAPIFetchLimits,
  budget: ByteBudget,
): Promise<SpecFiles> {
  const files: SpecFiles = new Map([[stripHash(entry.url), { bytes: entry.bytes, doc: entry.doc }]]);
  const queue: string[] = [stripHash(entry.url)];
  while (queue.length) {
    const at = queue.shift()!;
    for (const ref of externalRefs(files.get(at)!.doc)) {
      const target = refTarget(ref, at);
      if (files.has(target)) continue;
      if (!/^https?:$/.test(new URL(target).protocol))
        throw new OpenAPIProcessingError('PARSE_ERROR', `The $ref "${ref}" does not point to an http(s) document`);
      if (files.size >= limits.maxFiles)
        throw new OpenAPIProcessingError('PARSE_ERROR', `The specification spans more than ${limits.maxFiles} files`);
      const res = await fetchFile(target, limits, budget.left());
      budget.take(res.body, target);
      files.set(target, { bytes: res.body, doc: parseDocument(res.body, target) });
      queue.push(target);
    }
  }
  return files;
}

/** The URL without fragment of the file a `$ref` of the document at `at` points to. */
function refTarget(ref: string, at: string): string {
  if (at.startsWith(TEXT_BASE) && !/^https?:\/\//i.test(ref)) {
    throw new OpenAPIProcessingError(
      'PARSE_ERROR',
      `The $ref "${ref}" is relative, but the specification was given as text: give its URL instead`,
    );
  }
  try {
    return stripHash(new URL(ref, at).toString());
  } catch {
    throw new OpenAPIProcessingError('PARSE_ERROR', `The $ref "${ref}" is not a valid reference`);
  }
}

/**
 * The files as stored: the entry document by its file name, the others relative to its folder (`relativeKey`),
 * and their hash (names and bytes).
 */
function filesystemOf(entryKey: string, files: SpecFiles): { hash: string; filesystem: OpenAPIFilesystem } {
  const entrypoint = fileName(entryKey);
  const fsFiles: Record<string, unknown> = {};
  const hash = createHash('sha256');
  for (const [url, file] of files) {
    const key = url === entryKey ? entrypoint : relativeKey(entryKey, url);
    fsFiles[key] = file.doc;
    hash.update(`${key}\0${createHash('sha256').update(file.bytes).digest('hex')}\0`);
  }
  const filesystem: OpenAPIFilesystem = { entrypoint, files: fsFiles };
  // PostgreSQL's jsonb cannot hold U+0000.
  if (JSON.stringify(filesystem).includes('\\u0000'))
    throw new OpenAPIProcessingError('PARSE_ERROR', 'The specification contains NUL characters');
  return { hash: hash.digest('hex'), filesystem };
}

async function fetchFile(url: string, limits: OpenAPIFetchLimits, budget: number) {
  let res;
  try {
    res = await guardedFetch(url, {
      allowPrivate: limits.allowPrivate,
      allowPublic: limits.allowPublic,
      timeoutMs: limits.fetchTimeoutMs,
      maxBytes: Math.max(0, budget),
      headers: { accept: 'application/yaml, application/json;q=0.9, text/yaml;q=0.8, */*;q=0.5' },
    });
  } catch (err) {
    if (err instanceof DomainError) {
      throw new OpenAPIProcessingError(
        /: it timed out$/.test(err.message) ? 'FETCH_TIMEOUT' : 'FETCH_ERROR',
        err.message,
      );
    }
    throw err;
  }
  if (res.status < 200 || res.status >= 300)
    throw new OpenAPIProcessingError('FETCH_ERROR', `GET ${url} answered HTTP ${res.status}`);
  return res;
}

const looksLikeJson = (text: string) => /^\s*[{[]/.test(text);

function parseDocument(bytes: Buffer, what: string): unknown {
  const text = bytes.toString('utf8');
  try {
    return looksLikeJson(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100, uniqueKeys: false });
  } catch (err) {
    // Not JSON after all (YAML flow mappings also start with `{`): YAML is a superset of JSON.
    if (looksLikeJson(text)) {
      try {
        return parseYaml(text, { maxAliasCount: 100, uniqueKeys: false });
      } catch {
        /* the JSON error says more */
      }
    }
    throw new OpenAPIProcessingError(
      'PARSE_ERROR',
      `Cannot parse ${what} as YAML or JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The file parts of the `$ref`s of a document that point outside it (`other.yaml#/x` → `other.yaml`). */
function externalRefs(doc: unknown): string[] {
  const out = new Set<string>();
  const stack: unknown[] = [doc];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const file = value.split('#')[0]!;
          if (file) out.add(file);
        } else stack.push(value);
      }
    }
  }
  return [...out];
}

/** Validates the entry document with every file already fetched (nothing is fetched again). */
async function validate(entryUrl: string, entryDoc: unknown, files: SpecFiles): Promise<void> {
  if (!entryDoc || typeof entryDoc !== 'object' || Array.isArray(entryDoc)) {
    throw new OpenAPIProcessingError('PARSE_ERROR', 'The document is not an OpenAPI or Swagger object');
  }
  const fetched = {
    order: 1,
    canRead: true,
    read: (file: { url: string }) => {
      const hit = files.get(stripHash(file.url));
      if (!hit) throw new Error(`${file.url} is not part of the specification`);
      return hit.bytes.toString('utf8');
    },
  };
  try {
    // The parser's job is to check that this object is a document: its type says so before it did.
    await new SwaggerParser().validate(entryUrl, structuredClone(entryDoc) as never, {
      resolve: { file: false, http: false, external: true, fetched },
      dereference: { circular: true },
    });
  } catch (err) {
    throw new OpenAPIProcessingError('PARSE_ERROR', err instanceof Error ? err.message : String(err));
  }
}

const stripHash = (url: string) => url.split('#')[0]!;

function fileName(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).at(-1);
  return last ? decodeURIComponent(last) : 'openapi';
}

/** A file's name relative to the entry document's folder when it is under it, else its absolute URL. */
function relativeKey(entryUrl: string, url: string): string {
  const entry = new URL(entryUrl);
  const target = new URL(url);
  const dir = entry.pathname.slice(0, entry.pathname.lastIndexOf('/') + 1);
  if (target.origin === entry.origin && target.pathname.startsWith(dir))
    return decodeURIComponent(target.pathname.slice(dir.length)) + target.search;
  return url;
}

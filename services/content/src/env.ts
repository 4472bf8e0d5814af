import { z } from 'zod';
import { BaseEnvShape, intSetting, loadConfig, portSetting, SecretsEnvShape, SERVICE_ENDPOINTS } from '@quire/kit';

export const ContentEnvShape = {
  ...BaseEnvShape,
  /** Seals Git Sync credentials (the kit's SecretBox). */
  ...SecretsEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS.content.port),
  QUIRE_PURGE_EVERY_MS: intSetting(
    { min: 100, default: 3_600_000 },
    'How often the job removing spaces deleted more than 7 days ago runs (default hourly)',
  ),
  QUIRE_OPENAPI_FETCH_TIMEOUT_MS: intSetting(
    { min: 50, default: 15_000 },
    'How long fetching one OpenAPI document (or a file its $refs reach) may take before FETCH_TIMEOUT',
  ),
  QUIRE_OPENAPI_MAX_BYTES: intSetting(
    { min: 1024, default: 10 * 1024 * 1024 },
    'Largest OpenAPI specification: the entry document and every file its $refs reach, added up (FETCH_ERROR above)',
  ),
  QUIRE_OPENAPI_MAX_FILES: intSetting(
    { min: 1, default: 50 },
    'Most files one OpenAPI specification may span, the entry document included (PARSE_ERROR above)',
  ),
  QUIRE_OPENAPI_SCAN_EVERY_MS: intSetting(
    { min: 50, default: 1_000 },
    'How often the OpenAPI job looks for specifications waiting to be processed (and at start, for those a stopped process left)',
  ),
  QUIRE_IMPORT_MAX_DEPTH: intSetting(
    { min: 0, max: 50, default: 3 },
    'Website import: how many links away from the start page pages are followed (0: the start page alone)',
  ),
  QUIRE_IMPORT_MAX_PAGES: intSetting(
    { min: 1, max: 10_000, default: 100 },
    'Website import: most page URLs fetched, the start page included',
  ),
  QUIRE_IMPORT_MAX_BYTES: intSetting(
    { min: 1024, max: 1024 * 1024 * 1024, default: 50 * 1024 * 1024 },
    'Website import: most bytes downloaded, pages and images added up',
  ),
  QUIRE_IMPORT_TIMEOUT_MS: intSetting(
    { min: 100, max: 240_000, default: 60_000 },
    'Website import: how long fetching a site (pages and images) may take, at most 4 minutes (the import answers within the request); what is not fetched by then is left out',
  ),
  QUIRE_IMPORT_CONCURRENCY: intSetting({ min: 1, max: 32, default: 4 }, 'Website import: fetches at a time'),
  QUIRE_GIT_MAX_FILE_BYTES: intSetting(
    { min: 1024, max: 1024 * 1024 * 1024, default: 25 * 1024 * 1024 },
    "Git Sync: largest file of a space's project directory (images and other assets included), and largest Git object of the fetched commit, inflated",
  ),
  QUIRE_GIT_MAX_PROJECT_BYTES: intSetting(
    { min: 1024, default: 512 * 1024 * 1024 },
    "Git Sync: the files of a space's project directory (`repoProjectDirectory`), added up",
  ),
  QUIRE_GIT_MAX_FETCH_BYTES: intSetting(
    { min: 1024, default: 1024 * 1024 * 1024 },
    'Git Sync: bytes one operation reads from the remote, compressed as sent (the whole commit)',
  ),
  QUIRE_GIT_MAX_INFLATED_BYTES: intSetting(
    { min: 1024, default: 1024 * 1024 * 1024 },
    "Git Sync: the fetched commit's Git objects inflated, added up, read from the pack's object headers before anything is inflated",
  ),
  QUIRE_GIT_TIMEOUT_MS: intSetting(
    { min: 1_000, max: 3_600_000, default: 120_000 },
    'Git Sync: how long one import or export may take; past it, it stops and ends as `timeout`',
  ),
  QUIRE_GIT_PRIVATE_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .describe(
      'Git Sync: Git hosts allowed on loopback or private addresses (comma-separated host names, addresses, CIDR ranges: an intranet Git server); QUIRE_ALLOW_PRIVATE_FETCH=1 allows every one',
    ),
  QUIRE_PDF_INLINE_MAX_PAGES: intSetting(
    { min: 0, default: 50 },
    'Largest PDF export (in pages of the content) rendered while the request waits; larger ones are rendered by the background job (0: always in the background)',
  ),
  QUIRE_PDF_INLINE_MAX_CHARS: intSetting(
    { min: 0, default: 500_000 },
    'Largest PDF export (in characters of markdown) rendered while the request waits; larger ones are rendered by the background job',
  ),
  QUIRE_PDF_INLINE_WAIT_MS: intSetting(
    { min: 0, max: 120_000, default: 5_000 },
    'How long a request waits for a small PDF rendered for it; past it (a busy machine), the render goes on and the request gets the deferred link',
  ),
  QUIRE_PDF_SCAN_EVERY_MS: intSetting(
    { min: 50, default: 1_000 },
    'How often the PDF job looks for exports waiting to be rendered (and at start, for those a stopped process left)',
  ),
  QUIRE_PDF_LINK_WAIT_MS: intSetting(
    { min: 0, max: 60_000, default: 20_000 },
    'How long the link of a PDF still being rendered waits for it before answering 503 with Retry-After',
  ),
  QUIRE_PARSE_THREADS: intSetting(
    { min: 1, max: 32, default: 2 },
    'Worker threads reading user text (markdown, JSON documents, OpenAPI specifications) off the event loop',
  ),
  QUIRE_PARSE_TIMEOUT_MS: intSetting(
    { min: 50, max: 60_000, default: 1_500 },
    'How long reading the documents of one content write may take, all together (400 past it; the thread is stopped)',
  ),
  QUIRE_PARSE_MEMORY_MB: intSetting(
    { min: 64, max: 8_192, default: 256 },
    'Heap limit of a parsing thread, in MiB (413 past it; the thread is stopped): at least 64 (the parsers take 40)',
  ),
  QUIRE_PARSE_INLINE_BELOW: intSetting(
    { min: 0, max: 65_536, default: 1_024 },
    'Texts shorter than this many characters are read on the event loop (a thread round trip costs more)',
  ),
  QUIRE_MEMBER_CONCURRENT_IMPORTS: intSetting(
    { min: 0, default: 1 },
    'Website imports one member may run at once, per content process (429 past it); 0 = no cap',
  ),
  QUIRE_MEMBER_CONCURRENT_PDF_EXPORTS: intSetting(
    { min: 0, default: 2 },
    'PDF exports one member may ask for at once, per content process (429 past it); 0 = no cap',
  ),
  QUIRE_CONTENT_MAX_URL_FILES: intSetting(
    { min: 0, max: 1_000, default: 20 },
    'Files one content write may give by URL (each fetched, 4 at a time); 400 past it',
  ),
  QUIRE_PDF_RENDER_THREADS: intSetting(
    { min: 1, max: 32, default: 2 },
    'Worker threads rendering PDFs, off the event loop (the job renders one export at a time, so with two a request never waits behind a large render)',
  ),
  QUIRE_PDF_RENDER_MEMORY_MB: intSetting(
    { min: 128, default: 2_048 },
    'Heap limit of a PDF rendering thread, in MiB: a render that needs more fails (its export is marked failed) instead of taking the process down',
  ),
  QUIRE_SEARCH_CONFIG: z
    .string()
    .regex(
      /^(?:[a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/,
      'a PostgreSQL text search configuration name (`english`, `simple`, `public.my_config`)',
    )
    .default('english')
    .describe(
      'The PostgreSQL text search configuration search stems and indexes with (`english` by default; `simple` does not stem); a change re-indexes at start',
    ),
  QUIRE_SEARCH_CANDIDATES: intSetting(
    { min: 10, max: 100_000, default: 500 },
    'Most matching pages a search ranks (the pages whose title matches first, then others as the index finds them): a common word stays fast, but beyond it the best text matches may be missed',
  ),
  QUIRE_SEARCH_SCAN_EVERY_MS: intSetting(
    { min: 50, default: 300_000 },
    'How often (and at start) the search job indexes the spaces whose index is missing or behind their live revision, and drops the index of documents no page uses',
  ),
};
export type ContentConfig = ReturnType<typeof loadContentConfig>;
export const loadContentConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(ContentEnvShape, env);

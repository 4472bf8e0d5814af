import { describe, expect, it } from 'vitest';
import { HTTP_OPERATIONS } from '@quire/contracts';
import { buildOpenApiDocument, SERVICE_ROUTERS } from './openapi.ts';

type Paths = Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;

describe('a streamed operation in the OpenAPI document', () => {
  it('streamAskInSite answers text/event-stream of GitBook’s SearchAIAnswerStream events', () => {
    const doc = buildOpenApiDocument(SERVICE_ROUTERS, HTTP_OPERATIONS, { baseUrl: 'http://x', version: '1' });
    const ok = (doc.paths as Paths)['/v1/orgs/{organizationId}/sites/{siteId}/ask']!.post!.responses['200']!;
    expect(Object.keys(ok.content!)).toEqual(['text/event-stream']);
    expect(ok.content!['text/event-stream']).toMatchObject({
      schema: { type: 'object', properties: { type: { const: 'answer' }, answer: { type: 'object' } } },
    });
  });
});

import { z } from 'zod';
import { EmptySchema } from '../common.ts';
import { defineOperation } from '../operation.ts';

export const getApiInformation = defineOperation({
  id: 'meta.info',
  service: 'org-admin',
  access: 'public',
  input: EmptySchema,
  output: z
    .object({
      version: z.string().describe('Version of the API'),
      build: z.string().describe('Build of the running instance'),
    })
    .describe('ApiInformation'),
  http: { method: 'GET', path: '/', status: 200, operationId: 'getApiInformation', summary: 'Get information about the API', tags: ['api'] },
});

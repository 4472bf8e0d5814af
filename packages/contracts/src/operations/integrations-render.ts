import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { IntegrationNameSchema } from '../schemas/integration.ts';

const op = operationsOf('integrations', { tags: ['integrations'] });

/**
 * GitBook's rendering of an integration's UI (ContentKit) by running the integration's code. Quire's integrations
 * run no code yet: each answers 404 (`Integration UI rendering is not available…`).
 */
const NONE = "Quire's integrations run no code yet: always 404 (`not_found`)";
const Output = z
  .looseObject({})
  .describe("The rendered UI (GitBook's ContentKitRenderOutput); never answered by Quire yet");

export const renderIntegrationUIWithPost = op({
  id: 'integrationUIs.get',
  access: 'reader',
  input: z.object({
    integrationName: IntegrationNameSchema,
    componentId: z.string().min(1).max(200).describe('The component to render'),
    props: z.looseObject({}).describe('Its properties'),
    state: z.looseObject({}).optional().describe('Its local state'),
    context: z.looseObject({}).describe('Where it is rendered'),
    action: z.looseObject({}).optional().describe('The action to run'),
  }),
  output: Output,
  http: {
    route: 'POST /integrations/{integrationName}/render',
    operationId: 'renderIntegrationUIWithPost',
    summary: `Render an integration's UI. ${NONE}`,
  },
});

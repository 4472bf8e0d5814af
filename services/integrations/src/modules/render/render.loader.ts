import { DomainError } from '@quire/kit';

/** An integration's UI to render: Quire's integrations run no code yet, so there is none (a 404 saying so). */
export function loadIntegrationUI(input: { integrationName: string }): never {
  throw new DomainError(
    'not_found',
    `Integration UI rendering is not available: Quire's integrations run no code yet (${input.integrationName.slice(0, 100)})`,
  );
}

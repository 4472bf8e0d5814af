import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadIntegrationUI } from './render.loader.ts';
import { presentIntegrationUI } from './render.presenter.ts';

/** GitBook's integration UI rendering: a documented 404 until Quire's integrations run code. */
export const renderProcedures = {
  renderIntegrationUIWithPost: implement(ops.renderIntegrationUIWithPost, async ({ input }) =>
    presentIntegrationUI(loadIntegrationUI(input)),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;

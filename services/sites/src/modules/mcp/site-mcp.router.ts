import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { handleSiteMcp } from './site-mcp.ts';

/** A published site's MCP server (`<site>/~gitbook/mcp`), reached through the gateway. */
export const siteMcpProcedures = {
  handlePublishedSiteMcp: implement(ops.handlePublishedSiteMcp, ({ input, ctx }) => handleSiteMcp(ctx, input)),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;

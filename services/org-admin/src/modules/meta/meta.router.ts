import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';

export const API_VERSION = '0.1.0';

export const metaProcedures = {
  getApiInformation: implement(ops.getApiInformation, async ({ ctx }) => ({
    version: API_VERSION,
    build: ctx.config.QUIRE_BUILD,
  })),
};

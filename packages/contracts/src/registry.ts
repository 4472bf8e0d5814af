import type { AnyOperation, ServiceName } from './operation.ts';
import * as meta from './operations/meta.ts';
import * as identity from './operations/identity.ts';
import * as spaces from './operations/spaces.ts';

/** Every operation of the platform, by owning service. */
export const ServiceOperations = {
  'org-admin': { ...meta, ...identity },
  content: { ...spaces },
  sites: {},
  integrations: {},
} as const satisfies Record<ServiceName, Record<string, AnyOperation>>;

export type OperationsOf<S extends ServiceName> = (typeof ServiceOperations)[S][keyof (typeof ServiceOperations)[S]];

export const ALL_OPERATIONS: AnyOperation[] = Object.values(ServiceOperations).flatMap((ops) => Object.values(ops) as AnyOperation[]);

/** The operations the gateway serves over HTTP. */
export const HTTP_OPERATIONS = ALL_OPERATIONS.filter((op) => op.http && op.access !== 'internal');

{
  const seen = new Set<string>();
  for (const op of ALL_OPERATIONS) {
    const key = `${op.service}:${op.id}`;
    if (seen.has(key)) throw new Error(`operation ${key} declared twice`);
    seen.add(key);
  }
}

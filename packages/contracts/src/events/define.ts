import type { z } from 'zod';
import type { ServiceName } from '../operation.ts';

export interface EventDef<T extends string = string, D extends z.ZodType = z.ZodType> {
  type: T;
  service: ServiceName;
  /** Subject below the bus prefix: `<prefix>.<service>.<entity>.<verb>`, the prefix being `quire` unless configured. */
  subject: string;
  data: D;
}

export const defineEvent = <const T extends string, D extends z.ZodType>(
  service: ServiceName,
  type: T,
  data: D,
): EventDef<T, D> => ({
  type,
  service,
  subject: `${service}.${type}`,
  data,
});

/** The builder of a service's events (one per events file), like `operationsOf`: each event states its type and data. */
export const eventsOf =
  (service: ServiceName) =>
  <const T extends string, D extends z.ZodType>(type: T, data: D): EventDef<T, D> =>
    defineEvent(service, type, data);

import { z } from 'zod';
import { defineEvent } from './define.ts';

/** Events of the content service (`quire.content.<entity>.<verb>`). */
export const contentEvents = {
  spaceCreated: defineEvent('content', 'space.created', z.object({ space: z.string(), organization: z.string(), title: z.string(), parent: z.string().optional() })),
} as const;

import { z } from 'zod';
import { UrlSchema } from '../common.ts';
import { objectAndId } from './shapes.ts';

export const UserSchema = z
  .object({
    ...objectAndId('user', 'user'),
    displayName: z.string().describe('Full name of the user'),
    email: z.string().optional().describe('E-mail address of the user'),
    photoURL: z.string().optional().describe("URL of the user's profile picture"),
    urls: z.object({ location: UrlSchema.describe('URL of the user in the API') }),
  })
  .describe('User');
export type User = z.infer<typeof UserSchema>;

import { z } from 'zod';
import { IdSchema, listOf, NoContentSchema, PageQueryShape, TimestampSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { sessionId } from '../params.ts';

const op = operationsOf('org-admin', { tags: ['users'] });

/** A sign-in session of the user, as its owner sees it: never its cookie or the cookie's hash. */
const UserSessionSchema = z
  .object({
    object: z.literal('user-session').describe('Always `user-session`'),
    id: IdSchema.describe('Unique identifier of the session'),
    createdAt: TimestampSchema.describe('When it began: the sign-in'),
    lastSeenAt: TimestampSchema.describe('Its last request (minute precision)'),
    expiresAt: TimestampSchema.describe(
      'When it ends at the latest: 7 days after the sign-in (12 hours without a request end it sooner)',
    ),
    browser: z
      .string()
      .describe('The browser and its system, named from the User-Agent of the sign-in ("Firefox on Linux")'),
    userAgent: z.string().optional().describe('The User-Agent the browser sent when it signed in'),
    ipAddress: z.string().optional().describe('The address the sign-in came from'),
    current: z.boolean().describe('Whether the call is made with this session (the app in this browser)'),
  })
  .describe('UserSession');

export const listUserSessions = op({
  id: 'sessions.list',
  input: z.object({ ...PageQueryShape }),
  output: listOf(UserSessionSchema),
  http: {
    route: 'GET /user/sessions',
    operationId: 'listUserSessions',
    summary:
      "Quire-only: list the authenticated user's signed-in browser sessions that are still live, the most recently " +
      'started first',
  },
});

export const revokeUserSession = op({
  id: 'sessions.revoke',
  input: z.object({ sessionId }),
  output: NoContentSchema,
  http: {
    route: 'DELETE /user/sessions/{sessionId}',
    status: 204,
    operationId: 'revokeUserSession',
    summary:
      "Quire-only: sign out one of the authenticated user's sessions: its cookie stops working at once (404 for " +
      "another user's session or one that already ended)",
  },
});

import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { DomainError, formatIssues, toPublicError } from './errors.ts';

describe('toPublicError', () => {
  it('maps domain errors to their catalog status and keeps the message', () => {
    expect(toPublicError(new DomainError('precondition_failed', 'Too late'))).toMatchObject({
      status: 412,
      message: 'Too late',
      unexpected: false,
    });
    expect(toPublicError(new DomainError('not_found', 'Space not found'))).toMatchObject({ status: 404 });
  });

  it('names the field and the rule of a validation failure', () => {
    const r = z.object({ title: z.string().max(3) }).safeParse({ title: 'abcdef' });
    const err = new TRPCError({ code: 'BAD_REQUEST', cause: r.error });
    const pub = toPublicError(err);
    expect(pub.status).toBe(400);
    expect(pub.message).toMatch(/^Invalid request: title: Too big/);
  });

  it('never leaks the message of an unexpected error', () => {
    const pub = toPublicError(new Error('connection string postgres://secret@db'));
    expect(pub).toEqual({ status: 500, reason: 'internal', message: 'Internal server error', unexpected: true });
    expect(toPublicError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'boom at line 3' })).message).toBe(
      'Internal server error',
    );
  });

  it('treats a unique violation as a conflict', () => {
    const err = Object.assign(new Error('duplicate key'), { name: 'UniqueConstraintViolationException' });
    expect(toPublicError(err)).toMatchObject({ status: 409 });
  });
});

describe('formatIssues', () => {
  it('joins nested paths and caps the list', () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({ path: ['a', i], message: 'bad' }));
    expect(formatIssues(issues)).toBe('a.0: bad; a.1: bad; a.2: bad; a.3: bad; a.4: bad; and 2 more');
  });
});

describe('a database that is away', () => {
  const cases: [string, unknown][] = [
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5999'), { code: 'ECONNREFUSED' })],
    [
      'a server shutting down',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['a server in recovery', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection exception', Object.assign(new Error('connection failure'), { code: '08006' })],
    [
      'a statement timeout',
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    ],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['no connection in time', new Error('timeout exceeded when trying to connect')],
    [
      'wrapped by tRPC',
      new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }),
    ],
  ];
  it.each(cases)('answers 503, not 500: %s', (_name, err) => {
    expect(toPublicError(err)).toMatchObject({ status: 503, reason: 'unavailable', unexpected: false });
  });

  it('leaves other database errors a 500', () => {
    expect(toPublicError(Object.assign(new Error('syntax error'), { code: '42601' })).status).toBe(500);
    expect(toPublicError(new Error('Connection to the moon')).status).toBe(500);
  });
});

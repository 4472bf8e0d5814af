import { describe, expect, it } from 'vitest';
import { presentGitSyncState, providerOf } from './git.presenter.ts';
import type { GitOperationRow } from './git-sync.repository.ts';

const op = (over: Partial<GitOperationRow>): GitOperationRow => ({
  id: 'op1',
  space_id: 's1',
  direction: 'import',
  url: 'https://git.example.com/docs.git',
  ref: 'refs/heads/main',
  credentials: null,
  params: {},
  requested_by: 'u1',
  state: 'running',
  attempts: 1,
  error: null,
  commit_oid: null,
  revision_id: null,
  progress: null,
  created_at: new Date('2026-01-01T00:00:00Z'),
  ended_at: null,
  ...over,
});

describe('the Git Sync state as getSpaceGitInfo shows it', () => {
  it("names GitBook's provider from the remote's host, and none for other Git servers", () => {
    expect(providerOf('https://github.com/acme/docs.git')).toBe('github');
    expect(providerOf('https://github.acme.internal/acme/docs.git')).toBe('github');
    expect(providerOf('https://gitlab.com/acme/docs.git')).toBe('gitlab');
    expect(providerOf('https://gitlab.acme.internal/acme/docs.git')).toBe('gitlab');
    expect(providerOf('https://git.acme.internal/acme/docs.git')).toBeUndefined();
    expect(providerOf('http://127.0.0.1:3000/docs.git')).toBeUndefined();
    const gitea = presentGitSyncState(null, op({}), 120_000);
    expect(gitea).not.toHaveProperty('installationProvider');
    expect(presentGitSyncState(null, op({ url: 'https://gitlab.com/a/b.git' }), 120_000).installationProvider).toBe(
      'gitlab',
    );
  });

  it("shows a running operation's progress, and none once it ended", () => {
    const running = presentGitSyncState(null, op({ progress: { phase: 'storing', done: 25, total: 200 } }), 120_000);
    expect(running.operation).toMatchObject({ state: 'running', progress: { phase: 'storing', done: 25, total: 200 } });
    const ended = presentGitSyncState(
      null,
      op({ state: 'timeout', error: 'took too long', ended_at: new Date(), progress: { phase: 'fetching' } }),
      120_000,
    );
    expect(ended.operation).toMatchObject({ state: 'timeout', error: 'took too long' });
    expect(ended.operation).not.toHaveProperty('progress');
    expect(ended.sync).toMatchObject({ state: 'error', lastError: 'took too long' });
  });
});

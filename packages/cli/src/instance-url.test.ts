import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_URL, instanceUrl, instanceUrlFile, nextStepLine, recordInstanceUrl } from './instance-url.ts';

describe('the instance the CLI talks to', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-url-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is QUIRE_URL when set (its trailing slash dropped), whatever the data directory records', () => {
    const dir = dataDir();
    recordInstanceUrl(dir, 'http://127.0.0.1:9999');
    expect(instanceUrl({ QUIRE_URL: 'http://quire.example/', QUIRE_DATA_DIR: dir })).toEqual({
      url: 'http://quire.example',
      source: 'QUIRE_URL',
    });
  });

  it('is the URL `quire start` recorded beside quire.pid, named by its file; the file goes on stop', () => {
    const dir = dataDir();
    const recorded = recordInstanceUrl(dir, 'http://127.0.0.1:41234');
    expect(instanceUrlFile(dir)).toBe(join(dir, 'quire.url'));
    expect(instanceUrl({ QUIRE_DATA_DIR: dir })).toEqual({
      url: 'http://127.0.0.1:41234',
      source: join(dir, 'quire.url'),
    });
    recorded.remove();
    expect(existsSync(instanceUrlFile(dir))).toBe(false);
    expect(instanceUrl({ QUIRE_DATA_DIR: dir }).url).toBe(DEFAULT_URL);
  });

  it('is the default, saying so, with no QUIRE_URL and no usable recorded URL', () => {
    const dir = dataDir();
    expect(instanceUrl({ QUIRE_DATA_DIR: dir })).toEqual({
      url: 'http://127.0.0.1:8080',
      source: 'the default (no QUIRE_URL, no quire.url in the data directory)',
    });
    writeFileSync(instanceUrlFile(dir), 'not a url\n');
    expect(instanceUrl({ QUIRE_DATA_DIR: dir }).url).toBe(DEFAULT_URL);
  });
});

describe('the line `quire start` ends with', () => {
  it('gives the bootstrap command when there is no organization', () => {
    expect(nextStepLine({ hasOrganizations: false, publicUrl: 'http://127.0.0.1:8080', env: {} })).toBe(
      "Next, create the first organization and its admin: npx quire bootstrap --org 'Your team' --email you@example.com",
    );
  });

  it('names a data directory of its own in the command, quoted for the shell', () => {
    expect(
      nextStepLine({ hasOrganizations: false, publicUrl: 'http://q', env: { QUIRE_DATA_DIR: '/srv/my quire' } }),
    ).toContain("QUIRE_DATA_DIR='/srv/my quire' npx quire bootstrap --org");
  });

  it('gives the sign-in URL once there is an organization, and the outbox without an SMTP server', () => {
    expect(
      nextStepLine({ hasOrganizations: true, publicUrl: 'https://docs.acme.io/', env: { QUIRE_SMTP_URL: 'smtp://m' } }),
    ).toBe('Sign in at https://docs.acme.io/login');
    expect(nextStepLine({ hasOrganizations: true, publicUrl: 'https://docs.acme.io/', env: {} })).toBe(
      'Sign in at https://docs.acme.io/login (no SMTP server: the links Quire would mail are at https://docs.acme.io/admin/outbox)',
    );
  });
});

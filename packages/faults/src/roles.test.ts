import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentService, loadContentConfig } from '@quire/content';
import { loadOrgAdminConfig, orgAdminService } from '@quire/org-admin';
import { sql } from '@quire/kit';
import { createTestDatabase, startTestService, type TestDatabase, type TestService } from '@quire/kit/testing';

/** Each service connects as a role of its own that owns its schema and can reach no other. */
let db: TestDatabase;
let content: TestService;
let orgAdmin: TestService;

beforeAll(async () => {
  db = await createTestDatabase('roles');
  orgAdmin = await startTestService(orgAdminService, loadOrgAdminConfig, db);
  content = await startTestService(contentService, loadContentConfig, db);
});

afterAll(async () => {
  await content?.close();
  await orgAdmin?.close();
  await db?.drop();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: { code?: string; message: string }) => ({ code: err.code, message: err.message }),
  );

describe('per-service PostgreSQL roles', () => {
  it('connects each service as its own role, owner of its schema', async () => {
    const [c] = await sql<{ user: string; owner: string }>(
      content.em(),
      `select current_user as user, pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = 'content'`,
    );
    expect(c).toEqual({ user: `${db.name}_content`, owner: `${db.name}_content` });
    const [o] = await sql<{ user: string; tables: number }>(
      orgAdmin.em(),
      `select current_user as user, count(*)::int as tables from pg_tables where schemaname = 'org_admin' and tableowner = current_user`,
    );
    expect(o!.user).toBe(`${db.name}_org_admin`);
    expect(o!.tables).toBeGreaterThan(3);
  });

  it("refuses content's role org-admin's tables (read, write, even the schema), and PUBLIC too", async () => {
    const em = content.em();
    expect(await failure(sql(em, 'select * from org_admin.organization'))).toMatchObject({
      code: '42501',
      message: expect.stringMatching(/permission denied for schema org_admin/),
    });
    expect(await failure(sql(em, `insert into org_admin.organization (id) values ('x')`))).toMatchObject({
      code: '42501',
    });
    expect(await failure(sql(em, 'create table org_admin.intruder (id int)'))).toMatchObject({ code: '42501' });
    expect(await failure(sql(orgAdmin.em(), 'select * from content.space'))).toMatchObject({ code: '42501' });
    const [pub] = await sql<{ usable: boolean }>(
      em,
      `select has_schema_privilege('public', 'org_admin', 'usage') as usable`,
    );
    expect(pub!.usable).toBe(false);
  });

  it('may not create roles, databases or other schemas', async () => {
    const em = content.em();
    expect(await failure(sql(em, 'create schema intruder'))).toMatchObject({ code: '42501' });
    expect(await failure(sql(em, 'create role intruder'))).toMatchObject({ code: '42501' });
    expect(await failure(sql(em, 'create database intruder'))).toMatchObject({ code: '42501' });
  });
});

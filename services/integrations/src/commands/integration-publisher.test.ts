import { describe, expect, it } from 'vitest';
import { INTEGRATION_ICON_MAX_BYTES } from '@quire/contracts';
import { SecretBox, type EntityManager } from '@quire/kit';
import { failureOf, png, TEST_SECRETS_KEY, useTestService } from '@quire/kit/testing';
import { loadIntegrationsConfig } from '../env.ts';
import { Integration, IntegrationVersion } from '../modules/integrations/integration.entity.ts';
import { integrationsService } from '../service.ts';
import { integrationPublisher, secretsAad, type IntegrationPublisherProps } from './integration-publisher.ts';

const t = useTestService(integrationsService, loadIntegrationsConfig, { label: 'integration-publisher' });
const box = new SecretBox(TEST_SECRETS_KEY, []);
const OWNER = 'org-pub';

const publish = (input: Partial<IntegrationPublisherProps['input']> & { integrationName: string }, now?: Date) =>
  t.em().transactional(async (tx: EntityManager) =>
    integrationPublisher(tx, {
      input: {
        runtime: 'v1',
        title: 'Hello',
        description: 'Says hello',
        scopes: ['space:content:read', 'space:content:read'],
        script: 'export default {}',
        ...input,
      },
      ownerId: OWNER,
      existing: await tx.findOne(Integration, { name: input.integrationName }),
      blobs: t.svc.deps.blobs,
      box,
      publishedBy: 'publisher',
      ...(now ? { now } : {}),
    }),
  );
const stored = (name: string) => t.em().findOneOrFail(Integration, { name });
const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};

describe('integrationPublisher', () => {
  it('publishes version 1 with defaults, its files in the blob store, its secrets sealed to it, the version kept', async () => {
    const icon = png(4, 4);
    const t0 = new Date('2031-10-01T00:00:00Z');
    await publish(
      {
        integrationName: 'hello',
        icon: icon.toString('base64'),
        secrets: { API_KEY: 's3cret' },
        categories: ['analytics', 'analytics'],
      },
      t0,
    );
    const integration = await stored('hello');
    expect(integration).toMatchObject({
      ownerId: OWNER,
      version: 1,
      visibility: 'public',
      target: 'all',
      runtime: 'v1',
      scopes: ['space:content:read'],
      categories: ['analytics'],
      blocks: [],
      summary: null,
      createdAt: t0,
    });
    expect(integration.icon).toMatchObject({ contentType: 'image/png', extension: 'png' });
    expect(Buffer.from((await t.svc.deps.blobs.get(integration.icon!.key))!.bytes)).toEqual(icon);
    expect(Buffer.from((await t.svc.deps.blobs.get(integration.scriptKey))!.bytes).toString()).toBe(
      'export default {}',
    );
    expect(integration.secrets).not.toContain('s3cret');
    expect(JSON.parse(box.open(integration.secrets!, secretsAad('hello')))).toEqual({ API_KEY: 's3cret' });
    expect(() => box.open(integration.secrets!, secretsAad('other'))).toThrow();

    const [version] = await t.em().find(IntegrationVersion, { integrationName: 'hello' });
    expect(version).toMatchObject({ version: 1, publishedBy: 'publisher', scriptKey: integration.scriptKey });
    expect(version!.manifest).toMatchObject({
      secretNames: ['API_KEY'],
      icon: integration.icon!.key,
      previewImages: [],
    });
    expect(JSON.stringify(version!.manifest)).not.toContain('s3cret');
    expect(version!.manifest).not.toHaveProperty('script');
    const published = (await t.outboxEvents('integration.published')).map((e) => e.data);
    expect(published).toContainEqual({ integration: 'hello', organization: OWNER, version: 1, visibility: 'public' });
  });

  it('republishes as the next version, keeping the secrets when none are given and replacing them otherwise', async () => {
    const t0 = new Date('2031-10-02T00:00:00Z');
    await publish({ integrationName: 'again', secrets: { A: '1' } }, t0);
    await publish({ integrationName: 'again', title: 'Again', visibility: 'unlisted' });
    let integration = await stored('again');
    expect(integration).toMatchObject({
      version: 2,
      title: 'Again',
      visibility: 'unlisted',
      createdAt: t0,
      icon: null,
    });
    expect(JSON.parse(box.open(integration.secrets!, secretsAad('again')))).toEqual({ A: '1' });
    await publish({ integrationName: 'again', secrets: { B: '2' } });
    integration = await stored('again');
    expect(integration.version).toBe(3);
    expect(JSON.parse(box.open(integration.secrets!, secretsAad('again')))).toEqual({ B: '2' });
    const versions = await t
      .em()
      .find(IntegrationVersion, { integrationName: 'again' }, { orderBy: { version: 'asc' } });
    expect(versions.map((v) => [v.version, (v.manifest as { secretNames: string[] }).secretNames])).toEqual([
      [1, ['A']],
      [2, []],
      [3, ['B']],
    ]);
  });

  it('refuses an icon or preview that is not an image, or too large (400 naming the field), writing nothing', async () => {
    expect(await refusal(publish({ integrationName: 'bad', icon: Buffer.from('hello').toString('base64') }))).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: icon: not an image (PNG, JPEG, GIF, WebP or SVG expected)',
    });
    const big = Buffer.concat([png(2, 2), Buffer.alloc(INTEGRATION_ICON_MAX_BYTES)]).toString('base64');
    expect(await refusal(publish({ integrationName: 'bad', icon: big }))).toEqual({
      reason: 'invalid_input',
      message: `Invalid request: icon: at most ${INTEGRATION_ICON_MAX_BYTES} bytes once decoded`,
    });
    expect(
      await refusal(
        publish({ integrationName: 'bad', previewImages: [png(2, 2).toString('base64'), 'bm90IGFuIGltYWdl'] }),
      ),
    ).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: previewImages.1: not an image (PNG, JPEG, GIF, WebP or SVG expected)',
    });
    expect(await t.em().count(Integration, { name: 'bad' })).toBe(0);
  });
});

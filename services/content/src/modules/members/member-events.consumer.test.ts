import { describe, expect, it } from 'vitest';
import { Events, type EventEnvelope } from '@quire/contracts';
import { InProcessBus } from '@quire/kit';
import { eventually, testLogger, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { memberRepository } from './member.repository.ts';

const bus = new InProcessBus(testLogger());
const t = useTestService(contentService, loadContentConfig, { label: 'members', bus });

let seq = 0;
const publish = (def: (typeof Events)[keyof typeof Events], data: unknown, occurredAt: Date) =>
  bus.publish(def.subject, {
    id: `m${++seq}`,
    type: def.type,
    occurredAt: occurredAt.toISOString(),
    data,
  } satisfies EventEnvelope);
const roleOf = async (org: string, user: string) => {
  const actor = await memberRepository.asActor(t.svc.deps.orm.em.fork(), org, user);
  return actor && actor.kind === 'user' ? actor.memberships[0]!.role : 'absent';
};

describe('member projection', () => {
  it('follows added, role-changed and removed, and ignores an older event delivered late', async () => {
    const t0 = Date.now();
    await publish(Events.memberAdded, { organization: 'mo', user: 'u1', role: 'read' }, new Date(t0));
    await eventually(async () => (await roleOf('mo', 'u1')) === 'read');
    await publish(
      Events.memberRoleChanged,
      { organization: 'mo', user: 'u1', role: 'edit', previousRole: 'read' },
      new Date(t0 + 10),
    );
    await eventually(async () => (await roleOf('mo', 'u1')) === 'edit');
    await publish(
      Events.memberRoleChanged,
      { organization: 'mo', user: 'u1', role: 'admin', previousRole: 'read' },
      new Date(t0 + 5),
    );
    await publish(Events.memberAdded, { organization: 'mo', user: 'u2', role: null }, new Date(t0));
    await eventually(async () => (await roleOf('mo', 'u2')) === null);
    expect(await roleOf('mo', 'u1')).toBe('edit');
    await publish(Events.memberRemoved, { organization: 'mo', user: 'u1' }, new Date(t0 + 20));
    await eventually(async () => (await roleOf('mo', 'u1')) === 'absent');
    await publish(Events.organizationDeleted, { organization: 'mo' }, new Date(t0 + 30));
    await eventually(async () => (await roleOf('mo', 'u2')) === 'absent');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conditionHolds, parseCondition } from './condition.ts';

const visitor = (claims: Record<string, unknown>) => ({ visitor: { claims } });
const beta = visitor({ plan: 'pro', seats: 12, roles: ['admin', 'dev'], unsigned: { isBetaUser: true } });

describe('adaptive conditions', () => {
  it('evaluates claims, comparisons, logic and the allowed methods', () => {
    expect(conditionHolds('visitor.claims.unsigned.isBetaUser', beta)).toBe(true);
    expect(conditionHolds('visitor.claims.unsigned.isBetaUser', visitor({}))).toBe(false);
    expect(conditionHolds('visitor.claims.plan == "pro" && visitor.claims.seats >= 10', beta)).toBe(true);
    expect(conditionHolds('visitor.claims.plan === "free" || !visitor.claims.unsigned.isBetaUser', beta)).toBe(false);
    expect(conditionHolds('visitor.claims.roles.includes("admin")', beta)).toBe(true);
    expect(conditionHolds('visitor.claims["plan"].startsWith("pr")', beta)).toBe(true);
    expect(conditionHolds('visitor.claims.seats > 20 ? false : true', beta)).toBe(true);
    expect(conditionHolds('["a", "b"].includes(visitor.claims.plan)', beta)).toBe(false);
    // No condition: shown.
    expect(conditionHolds(null, beta)).toBe(true);
    expect(conditionHolds('', beta)).toBe(true);
  });

  it('treats unknown identifiers and missing claims as false, never reaching prototypes', () => {
    expect(conditionHolds('isBetaUser', beta)).toBe(false);
    expect(conditionHolds('visitor.claims.nope.deeper.still', beta)).toBe(false);
    expect(conditionHolds('visitor.claims.constructor', beta)).toBe(false);
    expect(conditionHolds('visitor.claims.__proto__', beta)).toBe(false);
    expect(conditionHolds('visitor["constructor"]["name"] == "Object"', beta)).toBe(false);
    expect(conditionHolds('visitor.claims.plan.length > 1', beta)).toBe(false);
    expect(conditionHolds('visitor.claims.seats < "20"', beta)).toBe(false);
  });

  it('hides the element of a condition outside the language, and reports it once', () => {
    const logged: string[] = [];
    const log = (c: string, e: string) => logged.push(`${c}: ${e}`);
    for (const bad of [
      'visitor.claims.plan = "x"',
      'this.x',
      'visitor.claims.f()',
      'globalThis.process.exit()',
      '(() => 1)()',
      'visitor.claims.plan +',
      '/x/.test("x")',
      'a, b',
    ]) {
      expect(conditionHolds(bad, beta, log), bad).toBe(false);
    }
    expect(conditionHolds('visitor.claims.plan +', beta, log)).toBe(false);
    expect(logged.length).toBe(8);
    expect(parseCondition('x'.repeat(1025))).toMatchObject({ ok: false });
    expect(parseCondition(`${'!'.repeat(40)}true`)).toMatchObject({ ok: false });
    expect(parseCondition(Array.from({ length: 300 }, () => 'true').join(' || '))).toMatchObject({ ok: false });
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(typeof conditionHolds(text, beta)).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});

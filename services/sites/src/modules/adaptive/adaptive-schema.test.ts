import { describe, expect, it } from 'vitest';
import { checkAdaptiveSchema, conditionOf } from './adaptive-schema.ts';
import { adaptiveSchemaOf } from './adaptive-schema.testing.ts';

const schema = adaptiveSchemaOf(
  { isBetaUser: 'Beta tester', isAdmin: 'Administrator' },
  { isEnterprise: 'On the enterprise plan' },
);

describe('adaptive schema', () => {
  it('lists the boolean attributes as claim paths with their conditions', () => {
    const attrs = checkAdaptiveSchema(schema);
    expect(attrs.map((a) => [conditionOf(a), a.description])).toEqual([
      ['visitor.claims.unsigned.isBetaUser', 'Beta tester'],
      ['visitor.claims.unsigned.isAdmin', 'Administrator'],
      ['visitor.claims.isEnterprise', 'On the enterprise plan'],
    ]);
  });

  it('refuses what is not draft-07 or breaks the adaptive rules, naming the path', () => {
    const bad = (s: Record<string, unknown>) => {
      try {
        checkAdaptiveSchema(s);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(bad({ ...schema, type: 'array' })).toBe('jsonSchema.type: must be "object"');
    expect(bad({ ...schema, additionalProperties: true })).toBe('jsonSchema.additionalProperties: must be false');
    expect(bad({ ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' })).toMatch(
      /^jsonSchema.\$schema: must be/,
    );
    expect(bad({ ...schema, properties: { plan: { type: 'string', description: 'Plan' } } })).toBe(
      'jsonSchema.properties.plan.type: an attribute must be of type "boolean" (or an object of attributes)',
    );
    expect(bad({ ...schema, properties: { beta: { type: 'boolean' } } })).toBe(
      'jsonSchema.properties.beta.description: a boolean attribute needs a description',
    );
    expect(
      bad({ ...schema, properties: { unsigned: { type: 'object', properties: {}, additionalProperties: true } } }),
    ).toBe('jsonSchema.properties.unsigned.additionalProperties: must be false');
    expect(bad({ ...schema, required: 'yes' })).toMatch(/^jsonSchema: not a valid JSON Schema draft-07/);
  });
});

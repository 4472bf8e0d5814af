// A site's adaptive schema for the tests (the unit tests here, the router's and the e2e tests').

/** Boolean claims, each with its description, as JSON Schema properties. */
const booleanClaims = (claims: Record<string, string>) =>
  Object.fromEntries(Object.entries(claims).map(([name, description]) => [name, { type: 'boolean', description }]));

/**
 * A valid adaptive schema (JSON Schema draft-07): the `unsigned` claims of the site visitor, then the signed
 * ones at the top level, every claim a boolean described by the text it is given.
 */
export const adaptiveSchemaOf = (unsigned: Record<string, string>, signed: Record<string, string> = {}) => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: booleanClaims(unsigned),
      additionalProperties: false,
    },
    ...booleanClaims(signed),
  },
  additionalProperties: false,
});

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { IntegrationConfiguration, IntegrationConfigurations } from '@quire/contracts';
import { invalid } from '@quire/kit';

/** One Ajv for the service: strict (unknown keywords are errors), every error reported. */
const ajv = new Ajv({ strict: true, allErrors: true, useDefaults: false });

type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a GitBook configuration form (`{properties, required}`): each `string`, `number` or
 * `boolean` property becomes a JSON Schema property of that type (with its `enum` and `default`); a `button`
 * holds no value. Properties not declared are refused. A ContentKit form (`componentId`) has no schema: null.
 */
export function jsonSchemaOf(config: IntegrationConfiguration): JsonSchema | null {
  if (!('properties' in config)) return null;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, p] of Object.entries(config.properties)) {
    if (p.type === 'button') continue;
    properties[name] = {
      type: p.type,
      ...(p.title ? { title: p.title } : {}),
      ...(p.description ? { description: p.description } : {}),
      ...(p.type === 'string' && p.enum ? { enum: p.enum } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
    };
  }
  return {
    type: 'object',
    properties,
    required: (config.required ?? []).filter((name) => name in properties),
    additionalProperties: false,
  };
}

const messageOf = (e: ErrorObject): string => {
  if (e.keyword === 'additionalProperties') return `unknown property \`${String(e.params.additionalProperty)}\``;
  if (e.keyword === 'required') return `\`${String(e.params.missingProperty)}\` is required`;
  if (e.keyword === 'enum')
    return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return e.message ?? 'is invalid';
};

/** `field.sub.path` of an Ajv error, from its instance path, in the API's `Invalid request: <field>: <why>` form. */
const describe = (field: string, e: ErrorObject) => {
  const at = e.instancePath.split('/').filter(Boolean).join('.');
  return `${at ? `${field}.${at}` : field}: ${messageOf(e)}`;
};

/**
 * Checks the configuration forms of a publication as schemas: every form compiles (Ajv, strict), every
 * `required` name is a declared property, every `default` is valid for its property. 400 naming the field.
 */
export function assertValidConfigurations(configurations: IntegrationConfigurations | undefined): void {
  for (const level of ['account', 'space', 'site'] as const) {
    const config = configurations?.[level];
    if (!config) continue;
    const field = `configurations.${level}`;
    if ('properties' in config) {
      const missing = (config.required ?? []).filter((name) => !(name in config.properties));
      if (missing.length)
        throw invalid(`Invalid request: ${field}.required: \`${missing[0]}\` is not a declared property`);
      if (new Set(config.required ?? []).size !== (config.required ?? []).length)
        throw invalid(`Invalid request: ${field}.required: names must be unique`);
    }
    const schema = jsonSchemaOf(config);
    if (!schema) continue;
    try {
      ajv.compile(schema);
    } catch (err) {
      throw invalid(
        `Invalid request: ${field}: not a valid schema (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    for (const [name, prop] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      if (prop.default === undefined) continue;
      const { default: value, ...rest } = prop;
      const check = ajv.compile(rest);
      if (!check(value))
        throw invalid(`Invalid request: ${field}.properties.${name}.default: ${messageOf(check.errors![0]!)}`);
    }
  }
}

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Checks an installation's `configuration` against the integration's form of its `level` (`account` for an
 * installation in an organization, `space` or `site` for one on a space or a site) with Ajv: 400 naming the field
 * (`configuration.<property>: …`). Without that form (or with a ContentKit one), any object passes.
 */
export function assertConfigurationFits(
  configurations: IntegrationConfigurations,
  configuration: Record<string, unknown>,
  level: 'account' | 'space' | 'site' = 'account',
): void {
  const account = configurations[level];
  const schema = account ? jsonSchemaOf(account) : null;
  if (!account || !schema) return;
  let validate = compiled.get(account);
  if (!validate) compiled.set(account, (validate = ajv.compile(schema)));
  if (!validate(configuration)) throw invalid(`Invalid request: ${describe('configuration', validate.errors![0]!)}`);
}

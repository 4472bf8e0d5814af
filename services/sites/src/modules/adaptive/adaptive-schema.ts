import { Ajv } from 'ajv';
import { invalid } from '@quire/kit';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: true });

/** A boolean visitor attribute of an adaptive schema: its claim path (`unsigned.isBetaUser`) and description. */
export interface AdaptiveAttribute {
  path: string;
  description: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * Checks a site's visitor claims schema: a valid JSON Schema draft-07 (ajv compiles it), and the adaptive
 * rules: an object with `additionalProperties: false` whose properties are boolean attributes with a
 * `description`, or objects of such attributes (like `unsigned`, the unsigned claims) with
 * `additionalProperties: false`. 400 naming the path otherwise. Returns its attributes.
 */
export function checkAdaptiveSchema(schema: Record<string, unknown>): AdaptiveAttribute[] {
  const field = 'jsonSchema';
  if (schema.$schema !== undefined && schema.$schema !== DRAFT_07)
    throw invalid(`${field}.$schema: must be ${DRAFT_07}`);
  try {
    ajv.compile(schema);
  } catch (err) {
    throw invalid(`${field}: not a valid JSON Schema draft-07: ${err instanceof Error ? err.message : String(err)}`);
  }
  const attributes: AdaptiveAttribute[] = [];
  checkObject(schema, field, '', attributes);
  return attributes;
}

function checkObject(node: Record<string, unknown>, at: string, claimPath: string, out: AdaptiveAttribute[]): void {
  if (node.type !== 'object') throw invalid(`${at}.type: must be "object"`);
  if (node.additionalProperties !== false) throw invalid(`${at}.additionalProperties: must be false`);
  if (!isObject(node.properties)) throw invalid(`${at}.properties: must be an object`);
  for (const [name, child] of Object.entries(node.properties)) {
    const childAt = `${at}.properties.${name}`;
    if (!NAME.test(name))
      throw invalid(`${childAt}: an attribute name is letters, digits, \`_\` and \`$\`, not starting with a digit`);
    if (!isObject(child)) throw invalid(`${childAt}: must be an object`);
    const path = claimPath ? `${claimPath}.${name}` : name;
    if (child.type === 'object') {
      if (child.description !== undefined && typeof child.description !== 'string')
        throw invalid(`${childAt}.description: must be a string`);
      checkObject(child, childAt, path, out);
      continue;
    }
    if (child.type !== 'boolean')
      throw invalid(`${childAt}.type: an attribute must be of type "boolean" (or an object of attributes)`);
    if (typeof child.description !== 'string' || child.description.trim() === '')
      throw invalid(`${childAt}.description: a boolean attribute needs a description`);
    out.push({ path, description: child.description });
  }
}

/** The attributes of a stored schema (already checked when it was set); none without a schema. */
export function attributesOf(schema: Record<string, unknown> | null | undefined): AdaptiveAttribute[] {
  return schema ? checkAdaptiveSchema(schema) : [];
}

/** The condition testing an attribute: `visitor.claims.<path>`. */
export const conditionOf = (a: AdaptiveAttribute) => `visitor.claims.${a.path}`;

/** The schema of a site before one is set: an object without attributes. */
export const EMPTY_ADAPTIVE_SCHEMA: Record<string, unknown> = {
  $schema: DRAFT_07,
  type: 'object',
  properties: {},
  additionalProperties: false,
};

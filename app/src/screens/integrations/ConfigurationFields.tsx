import type { Integration } from '../../api/integrations.ts';

// An integration's configuration form (GitBook's `configurations.account`, `.space` or `.site`: a JSON schema of
// properties, or a ContentKit component), drawn as fields: the installation's form and each space's or site's.

export type ConfigurationForm = Integration['configurations']['account'];
type Form = NonNullable<ConfigurationForm>;
type Property = Extract<Form, { properties: unknown }>['properties'][string];
export type Values = Record<string, unknown>;

/** The properties of a form (none for a ContentKit component) and which of them are required. */
export function propertiesOf(form: ConfigurationForm) {
  const properties = form && 'properties' in form ? Object.entries(form.properties) : [];
  const required = new Set(form && 'properties' in form ? (form.required ?? []) : []);
  return { properties, required };
}

/** A property's starting value: the configuration's, else the form's default, else empty. */
function initial(p: Property, v: unknown): unknown {
  if (v !== undefined) return v;
  if (p.type === 'button') return undefined;
  return p.default ?? (p.type === 'boolean' ? false : p.type === 'number' ? undefined : '');
}

/** The form's values for a configuration as stored. */
export function valuesOf(form: ConfigurationForm, configuration: Values): Values {
  return Object.fromEntries(propertiesOf(form).properties.map(([k, p]) => [k, initial(p, configuration[k])]));
}

/**
 * The configuration a save sends: the stored one, with the form's values (an empty one removed). What the form does
 * not show (set by the integration itself) is kept.
 */
export function configurationOf(form: ConfigurationForm, values: Values, stored: Values): Values {
  const configuration: Values = { ...stored };
  for (const [k, p] of propertiesOf(form).properties) {
    const v = values[k];
    if (p.type === 'button') continue;
    if (v === undefined || v === '') delete configuration[k];
    else configuration[k] = v;
  }
  return configuration;
}

/** The fields of a configuration form (`id`: the prefix of their ids), or why there are none. */
export function ConfigurationFields(props: {
  id: string;
  form: ConfigurationForm;
  values: Values;
  onChange(values: Values): void;
  /** What the note says when the form has no property: "The integration has no settings of its own". */
  none: string;
}) {
  const { form, values } = props;
  const { properties, required } = propertiesOf(form);
  return (
    <>
      {form && 'componentId' in form && (
        <p className="muted">
          Its configuration is a ContentKit component (<code>{form.componentId}</code>), which the app does not draw.
        </p>
      )}
      {properties.length === 0 && !(form && 'componentId' in form) && <p className="muted">{props.none}</p>}
      {properties.map(([k, p]) => (
        <PropertyField
          key={k}
          id={`${props.id}-${k}`}
          name={k}
          property={p}
          required={required.has(k)}
          value={values[k]}
          onChange={(v) => props.onChange({ ...values, [k]: v })}
        />
      ))}
    </>
  );
}

/** One property of a configuration form: a text (a list when it has `enum`), a number, a checkbox. */
function PropertyField(props: {
  id: string;
  name: string;
  property: Property;
  required: boolean;
  value: unknown;
  onChange(v: unknown): void;
}) {
  const { id, property: p, value } = props;
  const label = p.title ?? props.name;
  const help = p.description ? (
    <span className="muted" id={`${id}-help`}>
      {p.description}
    </span>
  ) : null;
  const described = p.description ? `${id}-help` : undefined;
  if (p.type === 'button')
    return (
      <p className="muted">
        {label}: a button of the integration (<q>{p.button_text}</q>), which the app does not call.
      </p>
    );
  if (p.type === 'boolean')
    return (
      <label className="check">
        <input
          type="checkbox"
          checked={value === true}
          aria-describedby={described}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        <span>
          {label} {help}
        </span>
      </label>
    );
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {props.required ? ' (required)' : ''}
      </label>
      {p.type === 'string' && p.enum ? (
        <select
          id={id}
          required={props.required}
          aria-describedby={described}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => props.onChange(e.target.value)}
        >
          <option value="">—</option>
          {p.enum.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={p.type === 'number' ? 'number' : 'text'}
          step={p.type === 'number' ? 'any' : undefined}
          required={props.required}
          aria-describedby={described}
          value={value === undefined ? '' : String(value)}
          onChange={(e) =>
            props.onChange(
              p.type === 'number' ? (e.target.value === '' ? undefined : Number(e.target.value)) : e.target.value,
            )
          }
        />
      )}
      {help}
    </div>
  );
}

import { describe, expect, it } from 'vitest';
import { configurationOf, type ConfigurationForm, valuesOf } from './ConfigurationFields.tsx';
import { externalIdsOf } from './TargetConfiguration.tsx';

const form: ConfigurationForm = {
  properties: {
    project: { type: 'string', title: 'Project' },
    limit: { type: 'number', title: 'Limit', default: 5 },
    closed: { type: 'boolean', title: 'Closed' },
    sync: { type: 'button', title: 'Sync', button_text: 'Sync now', callback_url: '/sync' },
  },
  required: ['project'],
} as unknown as ConfigurationForm;

describe("an integration's configuration form", () => {
  it("starts from the stored values, else the form's defaults", () => {
    expect(valuesOf(form, { project: 'A' })).toEqual({ project: 'A', limit: 5, closed: false, sync: undefined });
    expect(valuesOf(undefined, { project: 'A' })).toEqual({});
  });

  it('saves the values over the stored configuration: empty ones removed, the others kept', () => {
    const stored = { project: 'A', token: 'set by the integration' };
    expect(configurationOf(form, { project: '', limit: 7, closed: true, sync: 'x' }, stored)).toEqual({
      token: 'set by the integration',
      limit: 7,
      closed: true,
    });
  });

  it('reads external IDs one a line, trimmed, blank lines dropped', () => {
    expect(externalIdsOf(' a \n\n b\n  ')).toEqual(['a', 'b']);
    expect(externalIdsOf('')).toEqual([]);
  });
});

/**
 * The inside of a GitBook tag, `{% name key="value" key2="value" %}`: a name (letters, digits, `-`, `_`),
 * then arguments. Attribute values are double-quoted with `\"` and `\\` escapes; a bare quoted string is a
 * positional argument (`{% include "path" %}`); the whole argument text is kept too (`{% if visitor.a %}`).
 */
export interface ParsedTag {
  name: string;
  /** Everything after the name, trimmed. */
  args: string;
  attributes: Record<string, string>;
  /** Quoted strings that are not an attribute's value, in order. */
  positional: string[];
  /** Whether the arguments are only attributes and quoted strings (nothing else the writer would drop). */
  clean: boolean;
}

const NAME = /^\{%-?\s*([A-Za-z][\w-]*)(?=\s|-?%\})/;

export function parseTag(value: string): ParsedTag | null {
  const text = value.trim();
  const match = NAME.exec(text);
  if (!match?.[1] || !text.endsWith('%}')) return null;
  const args = text
    .slice(match[0].length, text.length - 2)
    .replace(/-$/, '')
    .trim();
  return { name: match[1], args, ...parseArgs(args) };
}

function parseArgs(args: string): { attributes: Record<string, string>; positional: string[]; clean: boolean } {
  const attributes: Record<string, string> = {};
  const positional: string[] = [];
  let clean = true;
  let i = 0;
  while (i < args.length) {
    const c = args[i];
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    const key = /^[A-Za-z_][\w.-]*/.exec(args.slice(i, i + 200))?.[0];
    if (key && args[i + key.length] === '=' && args[i + key.length + 1] === '"') {
      const [string, end] = quoted(args, i + key.length + 1);
      if (string === null) return { attributes, positional, clean: false };
      if (!Object.hasOwn(attributes, key)) attributes[key] = string;
      else clean = false;
      i = end;
      continue;
    }
    if (c === '"') {
      const [string, end] = quoted(args, i);
      if (string === null) return { attributes, positional, clean: false };
      positional.push(string);
      i = end;
      continue;
    }
    clean = false;
    i++;
  }
  return { attributes, positional, clean };
}

/** The string starting with the quote at `at`, unescaped, and the index after its closing quote. */
function quoted(text: string, at: number): [string | null, number] {
  let out = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      out += text[i + 1];
      i++;
      continue;
    }
    if (c === '"') return [out, i + 1];
    out += c;
  }
  return [null, text.length];
}

/** A double-quoted attribute value: `"` and `\` escaped with a backslash, line breaks as spaces. */
export const quote = (value: string) => `"${value.replace(/[\r\n]+/g, ' ').replace(/[\\"]/g, '\\$&')}"`;

/** `{% name a="1" b="2" %}`: the attributes in the order given, undefined ones left out. */
export function writeTag(
  name: string,
  attributes: [string, string | undefined][] = [],
  positional: string[] = [],
): string {
  const parts = [
    name,
    ...positional.map(quote),
    ...attributes.flatMap(([key, value]) => (value === undefined ? [] : [`${key}=${quote(value)}`])),
  ];
  return `{% ${parts.join(' ')} %}`;
}

export const endTag = (name: string) => `{% end${name} %}`;

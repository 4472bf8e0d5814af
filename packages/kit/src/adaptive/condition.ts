import jsep from 'jsep';

// A pure module (no Node built-ins, no I/O): the content and sites services both evaluate with it.

/**
 * Adaptive-content conditions (`visitor.claims.unsigned.isBetaUser && visitor.claims.plan == "pro"`), parsed
 * with jsep and evaluated by walking the tree: no `eval`, no `Function`. What a condition may do is bounded:
 * at most `MAX_CONDITION_LENGTH` characters, `MAX_NODES` nodes and `MAX_DEPTH` levels; only literals, the
 * `visitor` identifier, member access on own properties, `! - +`, comparisons, `&& ||`, `?:`, array literals,
 * and the methods `includes`, `startsWith`, `endsWith`. An unknown identifier or a missing claim is
 * `undefined` (false). A condition outside that language does not parse: its element is hidden.
 */
export const MAX_CONDITION_LENGTH = 1024;
const MAX_NODES = 256;
const MAX_DEPTH = 32;
const METHODS = new Set(['includes', 'startsWith', 'endsWith']);

/** What conditions read: `visitor.claims` (signed claims, with the unsigned ones under `unsigned`). */
export interface ConditionContext {
  visitor: { claims: Record<string, unknown> };
}

type Node = jsep.Expression;
export type ParsedCondition = { ok: true; node: Node } | { ok: false; error: string };

const parsed = new Map<string, ParsedCondition>();

/** Parses (and checks the shape of) a condition; memoised, the memo bounded. */
export function parseCondition(source: string): ParsedCondition {
  const hit = parsed.get(source);
  if (hit) return hit;
  const result = parseUncached(source);
  if (parsed.size >= 5_000) parsed.clear();
  parsed.set(source, result);
  return result;
}

function parseUncached(source: string): ParsedCondition {
  if (source.length === 0 || source.length > MAX_CONDITION_LENGTH)
    return { ok: false, error: `a condition is 1..${MAX_CONDITION_LENGTH} characters` };
  let node: Node;
  try {
    node = jsep(source);
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  const problem = check(node, 0, { n: 0 });
  return problem ? { ok: false, error: problem } : { ok: true, node };
}

const BINARY = new Set(['==', '!=', '===', '!==', '<', '>', '<=', '>=', '&&', '||']);
const UNARY = new Set(['!', '-', '+']);

/** The first reason the tree is outside the language, or null. */
function check(node: Node | null, depth: number, count: { n: number }): string | null {
  if (node === null) return 'empty element';
  if (++count.n > MAX_NODES) return `more than ${MAX_NODES} nodes`;
  if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH}`;
  const sub = (...children: (Node | null)[]) =>
    children.map((c) => check(c, depth + 1, count)).find((p) => p !== null) ?? null;
  switch (node.type) {
    case 'Literal':
      return node.value instanceof RegExp ? 'regular expressions are not supported' : null;
    case 'Identifier':
      return null;
    case 'MemberExpression': {
      const m = node as jsep.MemberExpression;
      if (!m.computed && m.property.type !== 'Identifier') return 'bad member access';
      return sub(m.object, ...(m.computed ? [m.property] : []));
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      return UNARY.has(u.operator) ? sub(u.argument) : `operator ${u.operator} is not supported`;
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      return BINARY.has(b.operator) ? sub(b.left, b.right) : `operator ${b.operator} is not supported`;
    }
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression;
      return sub(c.test, c.consequent, c.alternate);
    }
    case 'ArrayExpression':
      return sub(...(node as jsep.ArrayExpression).elements);
    case 'CallExpression': {
      const c = node as jsep.CallExpression;
      const callee = c.callee as jsep.MemberExpression;
      if (
        callee.type !== 'MemberExpression' ||
        callee.computed ||
        !METHODS.has((callee.property as jsep.Identifier).name)
      ) {
        return `only ${[...METHODS].join(', ')} may be called`;
      }
      if (c.arguments.length !== 1) return 'a method takes one argument';
      return sub(callee.object, ...c.arguments);
    }
    default:
      return `${node.type} is not supported`;
  }
}

const own = (value: unknown, key: unknown): unknown => {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value))
    return typeof key === 'number' && Number.isInteger(key) ? value[key] : key === 'length' ? value.length : undefined;
  return typeof key === 'string' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
};

function compare(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case '==':
    case '===':
      return a === b;
    case '!=':
    case '!==':
      return a !== b;
  }
  const comparable =
    (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  if (!comparable) return false;
  const [x, y] = [a as number | string, b as number | string];
  return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
}

function callMethod(name: string, target: unknown, arg: unknown): unknown {
  if (name === 'includes')
    return Array.isArray(target) || typeof target === 'string'
      ? (target as { includes(x: unknown): boolean }).includes(arg as never)
      : false;
  if (typeof target !== 'string' || typeof arg !== 'string') return false;
  return name === 'startsWith' ? target.startsWith(arg) : target.endsWith(arg);
}

function evaluate(node: Node, ctx: ConditionContext): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier':
      return (node as jsep.Identifier).name === 'visitor' ? ctx.visitor : undefined;
    case 'MemberExpression': {
      const m = node as jsep.MemberExpression;
      const key = m.computed ? evaluate(m.property, ctx) : (m.property as jsep.Identifier).name;
      return own(evaluate(m.object, ctx), key);
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      const v = evaluate(u.argument, ctx);
      return u.operator === '!' ? !v : typeof v === 'number' ? (u.operator === '-' ? -v : v) : undefined;
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (b.operator === '&&') return evaluate(b.left, ctx) && evaluate(b.right, ctx);
      if (b.operator === '||') return evaluate(b.left, ctx) || evaluate(b.right, ctx);
      return compare(b.operator, evaluate(b.left, ctx), evaluate(b.right, ctx));
    }
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression;
      return evaluate(c.test, ctx) ? evaluate(c.consequent, ctx) : evaluate(c.alternate, ctx);
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((e) => (e ? evaluate(e, ctx) : undefined));
    case 'CallExpression': {
      const c = node as jsep.CallExpression;
      const callee = c.callee as jsep.MemberExpression;
      return callMethod(
        (callee.property as jsep.Identifier).name,
        evaluate(callee.object, ctx),
        evaluate(c.arguments[0]!, ctx),
      );
    }
    default:
      return undefined;
  }
}

/** Whether the tree names the `visitor` identifier anywhere (its value then depends on who reads). */
function readsVisitor(node: Node | null | undefined, depth = 0): boolean {
  if (!node || depth > MAX_DEPTH + 1) return false;
  if (node.type === 'Identifier') return (node as jsep.Identifier).name === 'visitor';
  const children: (Node | null | undefined)[] = [];
  for (const key of ['object', 'argument', 'left', 'right', 'test', 'consequent', 'alternate', 'callee'] as const)
    children.push((node as Record<string, Node | undefined>)[key]);
  if (node.type === 'MemberExpression' && (node as jsep.MemberExpression).computed)
    children.push((node as jsep.MemberExpression).property);
  if (Array.isArray((node as { elements?: unknown }).elements))
    children.push(...(node as jsep.ArrayExpression).elements);
  if (Array.isArray((node as { arguments?: unknown }).arguments))
    children.push(...(node as jsep.CallExpression).arguments);
  return children.some((c) => readsVisitor(c, depth + 1));
}

/**
 * Whether a condition depends on who reads it (it reads `visitor`): GitBook's `deterministic-only` evaluation
 * leaves such a condition alone. A condition that does not parse is not deterministic either (it hides its block
 * for every reader, but only a full evaluation says so).
 */
export function conditionReadsVisitor(condition: string): boolean {
  const p = parseCondition(condition);
  return !p.ok || readsVisitor(p.node);
}

/** Reports a condition that does not parse (once per condition per process). */
export type ConditionLogger = (condition: string, error: string) => void;
const reported = new Set<string>();

/**
 * Whether an element with this condition is shown: no condition shows it; a condition shows it when it
 * evaluates truthy; a condition that does not parse hides it (and is reported once).
 */
export function conditionHolds(
  condition: string | null | undefined,
  ctx: ConditionContext,
  log?: ConditionLogger,
): boolean {
  if (condition == null || condition.trim() === '') return true;
  const p = parseCondition(condition);
  if (!p.ok) {
    if (log && !reported.has(condition)) {
      if (reported.size >= 5_000) reported.clear();
      reported.add(condition);
      log(condition, p.error);
    }
    return false;
  }
  return !!evaluate(p.node, ctx);
}

// The syntax-tree readers behind conventions.test.ts: the TypeScript compiler's parser (no type checking,
// no program: each file is parsed alone, imports followed by their relative paths), so the mold is checked on
// what the code says, not on how its lines look.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';

/** A finding: where (`file:line`) and which rule the code there breaks. */
export type Finding = string;

/** The repository's TypeScript files, parsed once each. Paths are relative to the repository root. */
export class Sources {
  readonly #parsed = new Map<string, ts.SourceFile | undefined>();
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  file(path: string): ts.SourceFile | undefined {
    if (!this.#parsed.has(path)) {
      const abs = join(this.root, path);
      this.#parsed.set(
        path,
        existsSync(abs)
          ? ts.createSourceFile(path, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
          : undefined,
      );
    }
    return this.#parsed.get(path);
  }

  /** Parses `text` as the file at `path` (the checks' own tests give them sources that are not on disk). */
  put(path: string, text: string): void {
    this.#parsed.set(path, ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
  }

  /** `file:line` of a node. */
  at(sf: ts.SourceFile, node: ts.Node): string {
    return `${sf.fileName}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
  }
}

/** Calls `visit` on `node` and every node under it. */
export function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

export const isFunctionLike = (n: ts.Node): n is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

/** An expression without the wrappers that do not change what it is (`(x)`, `x as T`, `x satisfies T`, `x!`). */
export function unwrap(e: ts.Expression): ts.Expression {
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e)
  )
    e = e.expression;
  return e;
}

/** The name a function is known by: its own, its variable's, its property's; `(anonymous)` otherwise. */
export function functionName(fn: ts.FunctionLikeDeclaration): string {
  if (fn.name && (ts.isIdentifier(fn.name) || ts.isStringLiteral(fn.name))) return fn.name.text;
  if (ts.isConstructorDeclaration(fn)) return 'constructor';
  let p: ts.Node = fn.parent;
  while (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p)) p = p.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) && ts.isIdentifier(p.name)) return p.name.text;
  if (ts.isCallExpression(p)) {
    const callee = p.expression;
    const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
    if (name) return `(callback of ${name})`;
  }
  return '(anonymous)';
}

/** Every function of a file longer than `max` lines (first to last line of its text), nested ones included. */
export function longFunctions(
  sources: Sources,
  path: string,
  max: number,
): { at: string; name: string; lines: number }[] {
  const sf = sources.file(path);
  if (!sf) return [];
  const out: { at: string; name: string; lines: number }[] = [];
  walk(sf, (n) => {
    if (!isFunctionLike(n) || !n.body) return;
    const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
    const last = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
    if (last - first + 1 > max) out.push({ at: sources.at(sf, n), name: functionName(n), lines: last - first + 1 });
  });
  return out;
}

/** A declaration the call graph can follow: a function, or an object literal whose members are (a repository). */
export interface Decl {
  path: string;
  sf: ts.SourceFile;
  node: ts.FunctionLikeDeclaration | ts.ObjectLiteralExpression;
}

type Binding =
  | { kind: 'decl'; decl: Decl }
  | { kind: 'import'; from: string; name: string }
  | { kind: 'module'; from: string };

/**
 * Top-level names of the service sources and where they lead: a local function or object literal, an import
 * (followed to the exporting file through relative paths and re-exports). Packages (`@quire/kit`…) are not
 * followed: the mold's own machinery (kit `implement`) opens the transactions it is meant to.
 */
export class Modules {
  readonly #scopes = new Map<string, Map<string, Binding>>();
  readonly #reexports = new Map<string, { named: Map<string, Binding>; star: string[] }>();
  readonly sources: Sources;
  constructor(sources: Sources) {
    this.sources = sources;
  }

  /** The file a relative import names (the path as written when no such file is found); undefined for a package. */
  #resolve(from: string, spec: string): string | undefined {
    if (!spec.startsWith('.')) return undefined;
    const target = normalize(join(dirname(from), spec));
    for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')])
      if (candidate.endsWith('.ts') && this.sources.file(candidate)) return candidate;
    return target;
  }

  #scope(path: string): Map<string, Binding> {
    const known = this.#scopes.get(path);
    if (known) return known;
    const scope = new Map<string, Binding>();
    const reexports = { named: new Map<string, Binding>(), star: [] as string[] };
    this.#scopes.set(path, scope);
    this.#reexports.set(path, reexports);
    const sf = this.sources.file(path);
    if (!sf) return scope;
    for (const st of sf.statements) {
      if (ts.isFunctionDeclaration(st) && st.name && st.body)
        scope.set(st.name.text, { kind: 'decl', decl: { path, sf, node: st } });
      else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (!ts.isIdentifier(d.name) || !d.initializer) continue;
          const init = unwrap(d.initializer);
          if (isFunctionLike(init) || ts.isObjectLiteralExpression(init))
            scope.set(d.name.text, { kind: 'decl', decl: { path, sf, node: init } });
        }
      } else if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.importClause) {
        const from = this.#resolve(path, st.moduleSpecifier.text);
        const clause = st.importClause;
        if (!from || clause.isTypeOnly) continue;
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) scope.set(bindings.name.text, { kind: 'module', from });
        else if (bindings)
          for (const el of bindings.elements)
            if (!el.isTypeOnly)
              scope.set(el.name.text, { kind: 'import', from, name: (el.propertyName ?? el.name).text });
      } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
        const from = this.#resolve(path, st.moduleSpecifier.text);
        if (!from) continue;
        if (!st.exportClause) reexports.star.push(from);
        else if (ts.isNamedExports(st.exportClause))
          for (const el of st.exportClause.elements)
            reexports.named.set(el.name.text, { kind: 'import', from, name: (el.propertyName ?? el.name).text });
      }
    }
    return scope;
  }

  /** What `name` means at the top of `path`: a declaration, or undefined (a package's, a type, a local variable). */
  lookup(path: string, name: string, depth = 0): Decl | { module: string } | undefined {
    if (depth > 20) return undefined;
    const binding = this.#scope(path).get(name) ?? this.#reexports.get(path)?.named.get(name);
    if (binding?.kind === 'decl') return binding.decl;
    if (binding?.kind === 'module') return { module: binding.from };
    if (binding?.kind === 'import') return this.lookup(binding.from, binding.name, depth + 1);
    for (const star of this.#reexports.get(path)?.star ?? []) {
      const found = this.lookup(star, name, depth + 1);
      if (found) return found;
    }
    return undefined;
  }

  /** The file an imported name comes from (its import's target), whether or not it is followed further. */
  importedFrom(path: string, name: string): string | undefined {
    const binding = this.#scope(path).get(name);
    return binding?.kind === 'import' || binding?.kind === 'module' ? binding.from : undefined;
  }

  /** The declaration an expression names: `f`, `repo.method`, `ns.f` (one level of property access). */
  declOf(path: string, e: ts.Expression): Decl | undefined {
    e = unwrap(e);
    if (ts.isIdentifier(e)) {
      const found = this.lookup(path, e.text);
      return found && 'node' in found ? found : undefined;
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression)) {
      const owner = this.lookup(path, e.expression.text);
      if (!owner) return undefined;
      if ('module' in owner) {
        const found = this.lookup(owner.module, e.name.text);
        return found && 'node' in found ? found : undefined;
      }
      if (ts.isObjectLiteralExpression(owner.node)) return memberOf(owner, e.name.text);
    }
    return undefined;
  }
}

/** A member of an object literal declaration, when it is a function (`m() {}`, `m: () => …`). */
function memberOf(owner: Decl, name: string): Decl | undefined {
  if (!ts.isObjectLiteralExpression(owner.node)) return undefined;
  for (const p of owner.node.properties) {
    if (!p.name || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) || p.name.text !== name) continue;
    if (ts.isMethodDeclaration(p)) return { ...owner, node: p };
    if (ts.isPropertyAssignment(p)) {
      const init = unwrap(p.initializer);
      if (isFunctionLike(init)) return { ...owner, node: init };
    }
  }
  return undefined;
}

/** The method a call's callee names (`x.y.transactional(…)` → `transactional`), or its identifier. */
export function calleeName(call: ts.CallExpression): string | undefined {
  const callee = unwrap(call.expression);
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** Whether `e` is an EntityManager as code names it: `em`, `ctx.em`, `deps.em`, `em.fork()`, `ctx.em.fork()`. */
export function isEntityManager(e: ts.Expression): boolean {
  e = unwrap(e);
  if (ts.isIdentifier(e)) return e.text === 'em';
  if (ts.isPropertyAccessExpression(e)) return e.name.text === 'em';
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'fork')
    return isEntityManager(e.expression.expression);
  return false;
}

/** The methods that open (or end) a transaction, on an EntityManager or a connection. */
export const TRANSACTION_METHODS = new Set(['transactional', 'begin', 'commit', 'rollback', 'flush']);

/**
 * The first place a function reaches (through the functions and repositories it calls, in the service's own
 * files) where a transaction is opened, as `trail → … (file:line)`; undefined when there is none.
 */
export function transactionReached(
  modules: Modules,
  start: Decl,
  trail: string[],
  seen = new Set<ts.Node>(),
): string | undefined {
  if (seen.has(start.node)) return undefined;
  seen.add(start.node);
  let found: string | undefined;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(n)) {
      const callee = unwrap(n.expression);
      if (ts.isPropertyAccessExpression(callee) && TRANSACTION_METHODS.has(callee.name.text)) {
        found = `${[...trail].join(' → ')} → .${callee.name.text}() at ${modules.sources.at(start.sf, n)}`;
        return;
      }
    }
    // A function named anywhere (called, or handed on as a callback) may run: follow it.
    if (
      (ts.isIdentifier(n) && !isDeclarationName(n) && !isPropertyName(n)) ||
      (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression))
    ) {
      const decl = modules.declOf(start.path, n as ts.Expression);
      if (decl && decl.node !== start.node && isFunctionLike(decl.node)) {
        const name = ts.isIdentifier(n) ? n.text : n.getText(start.sf);
        found = transactionReached(modules, decl, [...trail, name], seen);
        if (found) return;
      }
    }
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(start.node, visit);
  return found;
}

const isDeclarationName = (n: ts.Identifier): boolean =>
  (ts.isVariableDeclaration(n.parent) ||
    ts.isFunctionDeclaration(n.parent) ||
    ts.isParameter(n.parent) ||
    ts.isBindingElement(n.parent) ||
    ts.isImportSpecifier(n.parent) ||
    ts.isPropertyAssignment(n.parent) ||
    ts.isMethodDeclaration(n.parent)) &&
  (n.parent as { name?: ts.Node }).name === n;

const isPropertyName = (n: ts.Identifier): boolean => ts.isPropertyAccessExpression(n.parent) && n.parent.name === n;

/**
 * A procedure of a router: `name: implement(ops.x, resolver)`, `implementStream(ops.x, resolver)` or
 * `implementPrepared(ops.x, prepare, handler)`.
 */
export interface Procedure {
  /** The operation's key in the contracts' `ops`. */
  op: string;
  call: ts.CallExpression;
  /** The resolver functions (the handler; for a prepared mutation, its prepare phase first). */
  resolvers: Decl[];
}

/** The procedures a router file declares. */
export function proceduresOf(modules: Modules, path: string): Procedure[] {
  const sf = modules.sources.file(path);
  if (!sf) return [];
  const out: Procedure[] = [];
  walk(sf, (n) => {
    if (!ts.isCallExpression(n)) return;
    const name = calleeName(n);
    if (name !== 'implement' && name !== 'implementPrepared' && name !== 'implementStream') return;
    const [op, ...fns] = n.arguments;
    if (!op || !ts.isPropertyAccessExpression(op) || !ts.isIdentifier(op.expression) || op.expression.text !== 'ops')
      return;
    const resolvers = fns.flatMap((f): Decl[] => {
      const e = unwrap(f);
      if (isFunctionLike(e)) return [{ path, sf, node: e }];
      const decl = modules.declOf(path, e);
      return decl && isFunctionLike(decl.node) ? [decl] : [];
    });
    out.push({ op: op.name.text, call: n, resolvers });
  });
  return out;
}

/** What a call does in the mold, by the file its callee comes from. */
export type Step = 'load' | 'command' | 'present';
export function stepOf(file: string | undefined): Step | undefined {
  if (!file) return undefined;
  if (/\/src\/commands\//.test(file)) return 'command';
  if (/\.loader\.ts$/.test(file)) return 'load';
  if (/\.presenter\.ts$/.test(file)) return 'present';
  return undefined;
}

/**
 * The loader, command and presenter calls of a resolver, in the order they complete (a call's arguments before
 * it: `present(ctx, await command(…))` is command, then present), functions of the router file itself expanded
 * where they are called.
 */
export function stepsOf(
  modules: Modules,
  resolver: Decl,
  seen = new Set<ts.Node>(),
): { step: Step; name: string; at: string }[] {
  if (seen.has(resolver.node)) return [];
  seen.add(resolver.node);
  const calls: ts.CallExpression[] = [];
  walk(resolver.node, (n) => {
    if (ts.isCallExpression(n)) calls.push(n);
  });
  calls.sort((a, b) => a.getEnd() - b.getEnd());
  return calls.flatMap((call) => {
    const callee = unwrap(call.expression);
    const head = ts.isIdentifier(callee)
      ? callee
      : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)
        ? callee.expression
        : undefined;
    if (!head) return [];
    const decl = modules.declOf(resolver.path, callee);
    if (decl && decl.path === resolver.path && isFunctionLike(decl.node)) return stepsOf(modules, decl, seen);
    const step = stepOf(modules.importedFrom(resolver.path, head.text));
    return step ? [{ step, name: callee.getText(resolver.sf), at: modules.sources.at(resolver.sf, call) }] : [];
  });
}

// The mold, checked: what CONTRIBUTING.md asks of every service, enforced on the whole tree so that the
// next operation copied from an existing one cannot drift. The checks read the TypeScript syntax tree
// (conventions-ast.ts), not lines of text; every finding is `file:line: the rule broken`.
import { execFileSync } from 'node:child_process';
import { ops } from '@quire/contracts';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import {
  calleeName,
  isEntityManager,
  longFunctions,
  Modules,
  proceduresOf,
  Sources,
  stepsOf,
  TRANSACTION_METHODS,
  transactionReached,
  unwrap,
  walk,
  type Decl,
  type Finding,
} from './conventions-ast.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', 'services', 'packages', 'gateway'],
  { cwd: repoRoot, encoding: 'utf8' },
)
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
const sources = new Sources(repoRoot);
const modules = new Modules(sources);

const routers = files.filter((f) => /^services\/[^/]+\/src\/modules\/.+\.router\.ts$/.test(f));
const commands = files.filter((f) => /^services\/[^/]+\/src\/commands\//.test(f));
const serviceSources = files.filter((f) => /^services\/[^/]+\/src\//.test(f));
/** Test support (fixtures, fakes, harnesses): test code, like `*.test.ts`, for the rules about production code. */
const isTestSupport = (f: string) => /\.(testing|fixtures)\.ts$|\/test-support\.ts$|\/testing\/|\/e2e\//.test(f);

/** Every node of the files matching `test`, as `file:line: message`. */
function findings(list: string[], test: (n: ts.Node, sf: ts.SourceFile) => string | undefined): Finding[] {
  return list.flatMap((f) => {
    const sf = sources.file(f);
    if (!sf) return [];
    const out: Finding[] = [];
    walk(sf, (n) => {
      const broken = test(n, sf);
      if (broken) out.push(`${sources.at(sf, n)}: ${broken}`);
    });
    return out;
  });
}

const SQL_CALLS = new Set(['sql', 'sqlRun', 'createQueryBuilder', 'getConnection', 'getKnex']);
/** A call or tagged template that runs SQL: `sql(…)`, `sqlRun(…)`, `` sql`…` ``, `em.getConnection().execute(…)`. */
function runsSql(n: ts.Node): string | undefined {
  if (ts.isTaggedTemplateExpression(n) && ts.isIdentifier(n.tag) && n.tag.text === 'sql') return 'sql`…`';
  if (!ts.isCallExpression(n)) return undefined;
  const name = calleeName(n);
  return name && SQL_CALLS.has(name) ? `${name}()` : undefined;
}

/** The EntityManager methods that write, or flush what was written (`assign` changes a managed entity). */
const ORM_WRITES = new Set([
  'create',
  'persist',
  'persistAndFlush',
  'remove',
  'removeAndFlush',
  'insert',
  'insertMany',
  'upsert',
  'upsertMany',
  'nativeInsert',
  'nativeUpdate',
  'nativeDelete',
  'assign',
  'flush',
]);

/** A write at `n`: an ORM write on an EntityManager (`em.create`, `ctx.em.nativeUpdate`…) or `recordEvent`. */
function writeAt(n: ts.Node, sf: ts.SourceFile): string | undefined {
  if (!ts.isCallExpression(n)) return undefined;
  const callee = unwrap(n.expression);
  if (ts.isPropertyAccessExpression(callee) && ORM_WRITES.has(callee.name.text) && isEntityManager(callee.expression))
    return `writes (${callee.getText(sf)}): only commands write`;
  if (ts.isIdentifier(callee) && callee.text === 'recordEvent')
    return 'writes (recordEvent): only commands write (and record events)';
  return undefined;
}

/** A statement that writes: `insert into`, `update … set`, `delete from` (a CTE's too), in SQL's text. */
const WRITING_SQL = /\b(insert\s+into|update\s+\S+\s+set|delete\s+from)\b/i;

/** The text of a call's SQL, when it is written in place (a string or template literal, its parts joined). */
function sqlTextOf(n: ts.CallExpression | ts.TaggedTemplateExpression): string {
  const arg = ts.isCallExpression(n) ? n.arguments[1] : n.template;
  if (!arg) return '';
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  if (ts.isTemplateExpression(arg)) return [arg.head.text, ...arg.templateSpans.map((t) => t.literal.text)].join(' ');
  return '';
}

/** Whether a repository's function writes: it runs `sqlRun`, SQL that inserts, updates or deletes, or an ORM write. */
function repositoryWrites(decl: Decl): boolean {
  let found = false;
  walk(decl.node, (n) => {
    if (found) return;
    if (ts.isCallExpression(n) && calleeName(n) === 'sqlRun') found = true;
    else if (runsSql(n) && (ts.isCallExpression(n) || ts.isTaggedTemplateExpression(n)))
      found = WRITING_SQL.test(sqlTextOf(n));
    else found = writeAt(n, decl.sf) !== undefined;
  });
  return found;
}

/**
 * Where a file writes outside a command: an ORM write or `recordEvent` (above), or a call of a repository's function
 * that writes (`memberRepository.upsert(em, …)`, followed through the imports to the repository's own file).
 */
function writesOutsideCommands(modules: Modules, path: string): Finding[] {
  const sf = modules.sources.file(path);
  if (!sf) return [];
  const out: Finding[] = [];
  walk(sf, (n) => {
    const direct = writeAt(n, sf);
    if (direct) out.push(`${modules.sources.at(sf, n)}: ${direct}`);
    if (!ts.isCallExpression(n)) return;
    const decl = modules.declOf(path, n.expression);
    if (decl && decl.path !== path && /\.repository\.ts$/.test(decl.path) && repositoryWrites(decl))
      out.push(
        `${modules.sources.at(sf, n)}: writes through a repository (${unwrap(n.expression).getText(sf)}): only commands write`,
      );
  });
  return out;
}

/** What the rule of a router breaks at `n`, if it breaks one (see CONTRIBUTING.md §5 and the tests below). */
function routerRule(n: ts.Node, sf: ts.SourceFile): string | undefined {
  const callee = ts.isCallExpression(n) ? unwrap(n.expression) : undefined;
  // The ORM: any method called on an EntityManager (`ctx.em.find`, `em.persist`, `ctx.em.fork()`…).
  if (callee && ts.isPropertyAccessExpression(callee) && isEntityManager(callee.expression))
    return `calls the ORM (${callee.getText(sf)}): reads go through a loader or repository, writes through a command`;
  const sql = runsSql(n);
  if (sql) return `runs SQL (${sql}): SQL lives in repositories`;
  if (callee && ts.isIdentifier(callee) && callee.text === 'recordEvent')
    return 'records an event: only commands write (and record events)';
  if (callee && ts.isPropertyAccessExpression(callee) && TRANSACTION_METHODS.has(callee.name.text))
    return `opens or ends a transaction (.${callee.name.text}): the mold (implement) opens one per mutation`;
  // Authorization: a policy's methods (`xPolicy.assert`, `.role`, `.permissions`…), the level helpers, and any
  // value imported from a policy module: a loader asserts the action, a presenter computes the permissions.
  if (callee && ts.isPropertyAccessExpression(callee) && /(^p|P)olicy$/.test(callee.expression.getText(sf)))
    return `authorizes inline (${callee.getText(sf)}): a loader asserts the action, a presenter computes permissions`;
  if (ts.isIdentifier(n) && /^(membershipOf|roleAtLeast|organizationLevel|forbidden)$/.test(n.text))
    return `authorizes inline (${n.text}): a loader asserts the action`;
  if (
    ts.isImportDeclaration(n) &&
    ts.isStringLiteral(n.moduleSpecifier) &&
    /\.policy\.ts$/.test(n.moduleSpecifier.text)
  ) {
    const clause = n.importClause;
    const values = clause?.isTypeOnly
      ? []
      : clause?.namedBindings && ts.isNamedImports(clause.namedBindings)
        ? clause.namedBindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text)
        : clause
          ? ['*']
          : [];
    if (values.length)
      return `imports ${values.join(', ')} from ${n.moduleSpecifier.text}: authorization is a loader's (and a presenter's)`;
  }
  // Wiring only: no statement that decides or repeats. `??` (a default) and `?.` are wiring; `&&`/`||` decide.
  if (ts.isIfStatement(n)) return 'branches (if): decisions belong to the loader, command or presenter';
  if (ts.isSwitchStatement(n)) return 'branches (switch): decisions belong to the loader, command or presenter';
  if (ts.isConditionalExpression(n))
    return 'branches (… ? … : …): decisions belong to the loader, command or presenter';
  if (ts.isTryStatement(n)) return 'branches (try): errors are handled by the loader, command or the mold';
  if (
    ts.isBinaryExpression(n) &&
    [
      ts.SyntaxKind.AmpersandAmpersandToken,
      ts.SyntaxKind.BarBarToken,
      ts.SyntaxKind.AmpersandAmpersandEqualsToken,
      ts.SyntaxKind.BarBarEqualsToken,
    ].includes(n.operatorToken.kind)
  )
    return `branches (${n.operatorToken.getText(sf)}): decisions belong to the loader, command or presenter`;
  if (
    ts.isForStatement(n) ||
    ts.isForOfStatement(n) ||
    ts.isForInStatement(n) ||
    ts.isWhileStatement(n) ||
    ts.isDoStatement(n)
  )
    return 'loops: iteration belongs to the loader, command or presenter';
  return undefined;
}

/** The rule broken, without its line nor details: `file: message up to its first ( or :`, what debts count. */
const ruleOf = (finding: Finding) => {
  const [, file, message = ''] = /^([^:]+):\d+: (.*)$/.exec(finding) ?? [];
  return `${file}: ${message.split(/[(:]/)[0]!.trim()}`;
};

/**
 * Findings known when the checks were written, not yet moved into their layer: `file: rule` → how many, one table
 * per check. A count may only go down: the test fails when a file breaks a rule more often, and when a debt was
 * paid (fully or in part) but its count was not lowered, so a fix cannot go unrecorded. Empty is the goal.
 */
type Debts = Record<string, number>;
/** Routers holding what belongs to a loader, command or presenter (none left: keep it so). */
const ROUTER_DEBTS: Debts = {};
/** Procedures whose steps are out of order. */
const ORDER_DEBTS: Debts = {};
/** Queries that open a transaction. */
const QUERY_TRANSACTION_DEBTS: Debts = {};

/**
 * Files outside `src/commands/` that may write, each with its reason (a listed file that no longer writes fails the
 * test too). Keep it short: a write belongs in a command.
 */
const WRITE_EXCEPTIONS: Record<string, string> = {};

/** Fails on findings beyond the debts, listing them at `file:line`; and on debts paid but still listed. */
function expectWithinDebts(found: Finding[], debts: Debts): void {
  const counts = new Map<string, number>();
  for (const f of found) counts.set(ruleOf(f), (counts.get(ruleOf(f)) ?? 0) + 1);
  const beyond = found.filter((f) => (counts.get(ruleOf(f)) ?? 0) > (debts[ruleOf(f)] ?? 0));
  expect(beyond, 'the mold, broken here (CONTRIBUTING.md §5, §9)').toEqual([]);
  const paid = Object.entries(debts)
    .filter(([rule, n]) => (counts.get(rule) ?? 0) < n)
    .map(([rule, n]) => `${rule}: ${counts.get(rule) ?? 0} left of ${n}`);
  expect(paid, 'debts paid: lower (or remove) their count').toEqual([]);
}

describe('the checks themselves', () => {
  // A router breaking each rule once, and a query reaching a transaction two calls away: the checks must say where.
  const fake = new Sources(repoRoot);
  fake.put(
    'services/x/src/modules/a/a.router.ts',
    [
      "import { ops } from '@quire/contracts';",
      "import { aPolicy } from './a.policy.ts';",
      "import { loadA } from './a.loader.ts';",
      "import { aWriter } from '../../commands/a-writer.ts';",
      "import { presentA } from './a.presenter.ts';",
      'export const aProcedures = {',
      '  getA: implement(ops.getSpaceById, async ({ input, ctx }) => {',
      '    const rows = await ctx.em.find(A, {});',
      "    aPolicy.assert(ctx.actor, input, 'view');",
      '    if (rows.length) for (const r of rows) r.x = r.y ? 1 : 2;',
      '    return presentA(ctx, await aWriter(ctx.em, await loadA(ctx)));',
      '  }),',
      '};',
    ].join('\n'),
  );
  fake.put(
    'services/x/src/modules/a/a.loader.ts',
    'export const loadA = (ctx) => helper(ctx);\nfunction helper(ctx) {\n  return ctx.em.fork().transactional(() => 1);\n}',
  );
  const fakeModules = new Modules(fake);
  const path = 'services/x/src/modules/a/a.router.ts';

  it('finds each broken router rule at its line', () => {
    const sf = fake.file(path)!;
    const found: Finding[] = [];
    walk(sf, (n) => {
      const broken = routerRule(n, sf);
      if (broken) found.push(`${fake.at(sf, n)}: ${broken.split(':')[0]}`);
    });
    expect(found).toEqual([
      `${path}:2: imports aPolicy from ./a.policy.ts`,
      `${path}:8: calls the ORM (ctx.em.find)`,
      `${path}:9: authorizes inline (aPolicy.assert)`,
      `${path}:10: branches (if)`,
      `${path}:10: loops`,
      `${path}:10: branches (… ? … `,
    ]);
  });

  it('orders the steps as they complete, and follows a query into the files it calls', () => {
    const [proc] = proceduresOf(fakeModules, path);
    expect(stepsOf(fakeModules, proc!.resolvers[0]!).map((s) => `${s.step} ${s.name}`)).toEqual([
      'load loadA',
      'command aWriter',
      'present presentA',
    ]);
    expect(transactionReached(fakeModules, proc!.resolvers[0]!, ['getA'])).toBe(
      'getA → loadA → helper → .transactional() at services/x/src/modules/a/a.loader.ts:3',
    );
  });

  it('finds a write outside a command: through the ORM, an event, a repository that writes', () => {
    const w = new Sources(repoRoot);
    w.put(
      'services/x/src/modules/b/b.repository.ts',
      [
        'export const bRepository = {',
        '  async mark(em, id) {',
        "    await sqlRun(em, 'update :schema.b set x = 1 where id = ?', [id]);",
        '  },',
        '  find(em, id) {',
        "    return sql(em, 'select * from :schema.b where id = ?', [id]);",
        '  },',
        '  append(em, id) {',
        '    return sql(em, `with x as (select 1) insert into :schema.b (id) values (?) returning seq`, [id]);',
        '  },',
        '};',
      ].join('\n'),
    );
    const page = 'services/x/src/modules/b/b.pages.ts';
    w.put(
      page,
      [
        "import { bRepository } from './b.repository.ts';",
        'export async function show(ctx) {',
        '  await bRepository.find(ctx.em, 1);',
        '  ctx.em.create(B, {});',
        '  await bRepository.mark(ctx.em, 1);',
        '  recordEvent(ctx.em, Events.x, {});',
        '  await ctx.em.findOne(B, {});',
        '  await em.fork().nativeDelete(B, {});',
        '  await bRepository.append(ctx.em, 2);',
        '}',
      ].join('\n'),
    );
    expect(writesOutsideCommands(new Modules(w), page).map((f) => f.split(': only')[0])).toEqual([
      `${page}:4: writes (ctx.em.create)`,
      `${page}:5: writes through a repository (bRepository.mark)`,
      `${page}:6: writes (recordEvent)`,
      `${page}:8: writes (em.fork().nativeDelete)`,
      `${page}:9: writes through a repository (bRepository.append)`,
    ]);
  });
});

describe('the mold', () => {
  it('finds the routers, procedures and commands it checks', () => {
    expect(routers.length).toBeGreaterThan(30);
    expect(commands.length).toBeGreaterThan(5);
    expect(routers.flatMap((r) => proceduresOf(modules, r)).length).toBeGreaterThan(200);
  });

  it('keeps routers to wiring: no ORM, SQL, transaction, inline authorization, branch or loop', () => {
    expectWithinDebts(findings(routers, routerRule), ROUTER_DEBTS);
  });

  it('runs every procedure as load → command → present', () => {
    const broken: Finding[] = [];
    for (const r of routers)
      for (const p of proceduresOf(modules, r)) {
        const op = ops[p.op as keyof typeof ops];
        const at = sources.at(sources.file(r)!, p.call);
        if (!op) broken.push(`${at}: implements ops.${p.op}, which the contracts do not declare`);
        if (p.resolvers.length === 0) broken.push(`${at}: ${p.op}: its resolver is not a function of the service`);
        // Each resolver on its own: a prepared mutation loads (and may check) in its first phase, then loads again
        // in its transaction.
        for (const fn of p.resolvers) {
          const steps = stepsOf(modules, fn);
          const order = { load: 0, command: 1, present: 2 } as const;
          steps.forEach((s, i) => {
            const before = steps.slice(0, i).find((b) => order[b.step] > order[s.step]);
            if (before) broken.push(`${s.at}: ${p.op}: ${s.step} (${s.name}) after ${before.step} (${before.name})`);
            if (s.step === 'command' && op?.type === 'query')
              broken.push(`${s.at}: ${p.op}: a query runs a command (${s.name}): a query writes nothing`);
          });
        }
      }
    expectWithinDebts(broken, ORDER_DEBTS);
  });

  it('opens no transaction in a query, nor in anything it calls', () => {
    const broken: Finding[] = [];
    for (const r of routers)
      for (const p of proceduresOf(modules, r)) {
        if (ops[p.op as keyof typeof ops]?.type !== 'query') continue;
        for (const fn of p.resolvers) {
          const reached = transactionReached(modules, fn, [p.op]);
          if (reached) broken.push(`${sources.at(sources.file(r)!, p.call)}: a query opens a transaction: ${reached}`);
        }
      }
    expectWithinDebts(broken, QUERY_TRANSACTION_DEBTS);
  });

  it('keeps transactions out of commands: the mold (implement) opens one per mutation', () => {
    expect(
      findings(commands, (n, sf) => {
        const callee = ts.isCallExpression(n) ? unwrap(n.expression) : undefined;
        return callee && ts.isPropertyAccessExpression(callee) && TRANSACTION_METHODS.has(callee.name.text)
          ? `opens or ends a transaction (${callee.getText(sf)})`
          : undefined;
      }),
    ).toEqual([]);
  });

  it('writes only in commands: every file of every service, through the ORM, an event or a repository', () => {
    // Commands write; repositories hold the SQL that commands run; migrations build the schema; a consumer's handler
    // is the command of its event (CONTRIBUTING §8: it writes what the event says, in the consumer's transaction).
    const outside = serviceSources.filter(
      (f) => !/\/src\/commands\/|\.repository\.ts$|\/migrations\/|\.consumer\.ts$/.test(f) && !isTestSupport(f),
    );
    expect(outside.length).toBeGreaterThan(200);
    const found = outside.flatMap((f) => writesOutsideCommands(modules, f));
    expect(found.filter((f) => !Object.hasOwn(WRITE_EXCEPTIONS, f.split(':')[0]!))).toEqual([]);
    const stale = Object.keys(WRITE_EXCEPTIONS).filter((file) => !found.some((f) => f.startsWith(`${file}:`)));
    expect(stale, 'an exception no longer needed: remove it from WRITE_EXCEPTIONS').toEqual([]);
  });

  it('keeps SQL in repositories (and migrations)', () => {
    const outside = serviceSources.filter((f) => !/\.repository\.ts$|\/migrations\//.test(f) && !isTestSupport(f));
    expect(findings(outside, (n) => runsSql(n) && `runs SQL (${runsSql(n)}) outside a repository`)).toEqual([]);
  });

  it('builds every policy module on the kit policy', () => {
    const policies = serviceSources.filter((f) => f.endsWith('.policy.ts'));
    expect(policies.length).toBeGreaterThan(3);
    // access.policy.ts holds the content tree's rule (pure functions) that the content policies are defined with.
    const without = policies
      .filter((p) => !p.endsWith('/access.policy.ts'))
      .filter(
        (p) =>
          findings([p], (n) => (ts.isCallExpression(n) && calleeName(n) === 'definePolicy' ? 'x' : undefined))
            .length === 0,
      )
      .map((p) => `${p}:1: a policy module defines its policy with definePolicy`);
    expect(without).toEqual([]);
  });

  it("starts threads only through the kit's worker pool", () => {
    // One pool per process, one dispatch table (CONTRIBUTING.md §9): no piscina, Worker or workerData elsewhere.
    const outside = files.filter((f) => !f.startsWith('packages/kit/src/threads/'));
    expect(
      findings(outside, (n, sf) => {
        if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && n.moduleSpecifier.text === 'piscina')
          return "imports piscina: run the task on the kit's worker pool (workerPool)";
        if (ts.isNewExpression(n) && n.expression.getText(sf) === 'Worker')
          return "starts a Worker: run the task on the kit's worker pool (workerPool)";
        return undefined;
      }),
    ).toEqual([]);
  });

  it('reads process.env only in configuration and entry points', () => {
    // Handing the environment on to a child process (`...process.env`) is not reading it.
    // packages/faults and test support are test code: they read their own test settings, like tests do.
    const candidates = files.filter(
      (f) =>
        !/\/(env|config|main|standalone|cli|data-dir)\.ts$|\/testing\/|\/bin\/|packages\/faults\//.test(f) &&
        !isTestSupport(f),
    );
    expect(
      findings(candidates, (n, sf) =>
        ts.isPropertyAccessExpression(n) &&
        n.getText(sf) === 'process.env' &&
        !ts.isSpreadAssignment(n.parent) &&
        !ts.isSpreadElement(n.parent)
          ? 'reads process.env outside configuration (env.ts, config) and entry points'
          : undefined,
      ),
    ).toEqual([]);
  });
});

/** Functions longer than this are split into functions of one concern each (issue 24). */
const MAX_FUNCTION_LINES = 60;
/** The functions over the limit when the check was written: name → lines. Only shrinks; empty is the goal. */
const LONG_FUNCTIONS: Record<string, number> = {};

describe('function length', () => {
  it(`keeps every function (outside tests) at ${MAX_FUNCTION_LINES} lines or fewer`, () => {
    const long = files.filter((f) => !isTestSupport(f)).flatMap((f) => longFunctions(sources, f, MAX_FUNCTION_LINES));
    const key = (l: { at: string; name: string }) => `${l.at.replace(/:\d+$/, '')} ${l.name}`;
    expect(
      long
        .filter((l) => (LONG_FUNCTIONS[key(l)] ?? MAX_FUNCTION_LINES) < l.lines)
        .map((l) => `${l.at}: ${l.name} is ${l.lines} lines (at most ${MAX_FUNCTION_LINES}): split it by concern`),
    ).toEqual([]);
    const now = new Set(long.map(key));
    expect(
      Object.keys(LONG_FUNCTIONS).filter((k) => !now.has(k)),
      'split or gone: remove from LONG_FUNCTIONS',
    ).toEqual([]);
  });
});

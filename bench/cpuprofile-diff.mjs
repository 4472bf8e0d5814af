// Compares two V8 CPU profiles (e.g. `BENCH_PROFILE=ref,cur npm run bench -- --compare <ref>`) function by function,
// in µs per request: each profile's time (start-up left out: module loading and compiling) divided by the number of
// requests its process answered while profiled (the rounds and warm-ups the bench printed), largest growth first.
// Usage: node bench/cpuprofile-diff.mjs <ref.cpuprofile> <ref requests> <cur.cpuprofile> <cur requests> [self|incl]
// N=40 lines by default. A profiled process runs 2–3× slower: compare the two columns, not against unprofiled figures.
import fs from 'node:fs';

const STARTUP = /compileSourceTextModule|ModuleWrap|moduleStrategy|loadESM/;

function load(file) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const time = new Map();
  for (let i = 0; i < p.samples.length; i++)
    time.set(p.samples[i], (time.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const name = (n) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/\/.*?\/(packages|services|gateway|bench)\//, '$1/')}`;
  const self = new Map();
  const incl = new Map();
  let total = 0;
  for (const [id, dt] of time) {
    const node = byId.get(id);
    if (['(idle)', '(program)'].includes(node.callFrame.functionName)) continue;
    const chain = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) chain.push(byId.get(cur));
    if (chain.some((c) => c.callFrame.url.includes('run_main_module') || STARTUP.test(c.callFrame.functionName)))
      continue;
    total += dt;
    self.set(name(node), (self.get(name(node)) ?? 0) + dt);
    const seen = new Set();
    for (const c of chain) {
      const k = name(c);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + dt);
    }
  }
  return { self, incl, total };
}

const [refFile, refRequests, curFile, curRequests, mode = 'self'] = process.argv.slice(2);
if (!curRequests) {
  console.error(
    'usage: node bench/cpuprofile-diff.mjs <ref.cpuprofile> <requests> <cur.cpuprofile> <requests> [self|incl]',
  );
  process.exit(2);
}
const a = load(refFile);
const b = load(curFile);
const [na, nb] = [Number(refRequests), Number(curRequests)];
const kind = mode === 'incl' ? 'incl' : 'self';
console.log(`µs per request (start-up left out): ref ${(a.total / na).toFixed(0)}, cur ${(b.total / nb).toFixed(0)}`);
console.log(`${'ref'.padStart(8)} ${'cur'.padStart(8)} ${'cur-ref'.padStart(8)}  function (${kind} time)`);
const rows = [...new Set([...a[kind].keys(), ...b[kind].keys()])].map((k) => [
  k,
  (a[kind].get(k) ?? 0) / na,
  (b[kind].get(k) ?? 0) / nb,
]);
rows.sort((x, y) => y[2] - y[1] - (x[2] - x[1]));
for (const [k, x, y] of rows.slice(0, Number(process.env.N ?? 40)))
  console.log(`${x.toFixed(1).padStart(8)} ${y.toFixed(1).padStart(8)} ${(y - x).toFixed(1).padStart(8)}  ${k}`);

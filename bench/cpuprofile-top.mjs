// Summarizes a V8 .cpuprofile: top functions by self time and by inclusive time, as % of non-idle time.
// Usage: npx node bench/cpuprofile-top.mjs bench/results/<file>.cpuprofile
import fs from 'node:fs';
const file = process.argv[2];
const p = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas;
let total = 0;
const counts = new Map();
for (let i = 0; i < p.samples.length; i++) {
  counts.set(p.samples[i], (counts.get(p.samples[i]) ?? 0) + (dt[i] ?? 0));
  total += dt[i] ?? 0;
}
// inclusive time per function
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
const selfT = new Map();
const key = (n) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace('file:///work/main/', '')}:${n.callFrame.lineNumber}`;
for (const [id, t] of counts) {
  const n = byId.get(id);
  selfT.set(key(n), (selfT.get(key(n)) ?? 0) + t);
  const seen = new Set();
  let cur = id;
  while (cur !== undefined) {
    const k = key(byId.get(cur));
    if (!seen.has(k)) {
      incl.set(k, (incl.get(k) ?? 0) + t);
      seen.add(k);
    }
    cur = parent.get(cur);
  }
}
const active = total - (selfT.get('(idle) :-1') ?? 0);
const pct = (t) => ((100 * t) / active).toFixed(1).padStart(5) + '%';
console.log('SELF');
[...selfT]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 25)
  .forEach(([k, t]) => console.log(pct(t), k));
console.log('INCLUSIVE');
[...incl]
  .sort((a, b) => b[1] - a[1])
  .filter(([k]) => /quire|mikro-orm|trpc|zod|fastify|pino|kysely|pg\/|services\/|gateway\/|kit\//.test(k))
  .slice(0, Number(process.argv[3] ?? 40))
  .forEach(([k, t]) => console.log(pct(t), k));

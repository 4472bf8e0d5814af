import fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const target = process.argv[3];
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const chains = new Map();
for (const n of p.nodes) if (n.callFrame.functionName === target && n.hitCount > 0) {
  const chain = []; let cur = parent.get(n.id);
  while (cur !== undefined && chain.length < 8) { const f = byId.get(cur).callFrame; chain.push(`${f.functionName || '(anon)'}@${f.url.split('/').slice(-2).join('/')}:${f.lineNumber}`); cur = parent.get(cur); }
  const k = chain.join(' < '); chains.set(k, (chains.get(k) ?? 0) + n.hitCount);
}
[...chains].sort((a, b) => b[1] - a[1]).slice(0, 4).forEach(([k, c]) => console.log(c, k));

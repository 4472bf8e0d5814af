#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=8 --heap-growing-percent=40
// Memory (docs/running.md#memory): V8 sizes its heap to the machine and keeps what it grew to, so on a large machine an
// idle Quire held 1 GB after a burst of writes, ~200 MB of it alive. The V8 flags above grow the old generation by 40%
// over what survived a collection (V8's own choice reached 4×) and keep the young one at 2 × 8 MB; glibc keeps two
// malloc arenas instead of eight per core. The Dockerfile starts the services with the same settings.
import { runCli } from '../src/cli.ts';

try {
  const code = await runCli(
    process.argv.slice(2),
    process.env,
    (l) => console.log(l),
    (l) => console.error(l),
  );
  if (code !== 0) process.exitCode = code;
} catch (err) {
  console.error(`quire: ${(err as Error).message}`);
  process.exitCode = 1;
}

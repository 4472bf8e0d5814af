#!/usr/bin/env node
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

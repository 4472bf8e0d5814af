// The Git server of `npm run bench:git`, in a process of its own (so its `git http-backend` spawns do not stall the
// event loop the bench measures): Debian's `git http-backend` behind git-http-server.testing.ts on loopback. Prints
// `{"port": …, "root": "…"}` on its first line, then serves until stopped.
import { startGitServer } from '../services/content/src/modules/git/git-http-server.testing.ts';

const server = await startGitServer({
  user: process.env.BENCH_GIT_USER ?? 'bench',
  password: process.env.BENCH_GIT_PASSWORD ?? 'bench-password',
});
const port = Number(new URL(server.urlOf('x')).port);
console.log(JSON.stringify({ port, root: server.root }));
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

// `node bench/profile-check.mjs`: checks bench/profile.mjs's "own" figure (isolateTime in
// bench/inspector.mjs: the app isolate's non-idle samples × the sampler's period) against a CPU
// time known another way. It runs a loop of known length inside the app Worker's isolate through
// the inspector (Runtime.evaluate, nothing else running), under the same profiler, and prints the
// own time beside the CPU the workerd thread used meanwhile (/proc, 10 ms ticks). They should
// agree to within a few percent; the thread's figure also holds the inspector's own work.
// bench/README.md.
import {
  busiestThreadMs,
  connect,
  enableProfiler,
  isolateTime,
  startProfileServer,
  summarize,
  threadCpu,
} from "./inspector.mjs";
import { stopAll } from "./server.mjs";

const port = Number(process.env.BENCH_PORT ?? 8832);
const { server } = await startProfileServer(port);

try {
  const session = await connect(server);
  await session.send("Runtime.enable");
  // The context is announced once the isolate has run: a request makes sure it has.
  for (let i = 0; i < 50 && session.contextId === null; i += 1) {
    await fetch(`${server.origin}/api/does-not-exist`).then((res) => res.arrayBuffer());
    await new Promise((r) => setTimeout(r, 100));
  }
  if (session.contextId === null) throw new Error("the app Worker's execution context was never announced");
  await enableProfiler(session);
  console.log("loop (iterations): CPU the workerd thread used (/proc) | own (samples × period) | ratio");
  for (const n of [3e7, 1e8, 3e7, 1e8]) {
    await session.send("Profiler.start");
    const before = threadCpu(session.pid);
    const answer = await session.send("Runtime.evaluate", {
      contextId: session.contextId,
      expression: `(() => { let x = 0; for (let i = 0; i < ${n}; i++) x = (x + Math.imul(i, 2654435761)) | 0; return x; })()`,
    });
    const thread = busiestThreadMs(before, threadCpu(session.pid));
    const { profile } = await session.send("Profiler.stop");
    if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.text);
    const own = isolateTime(profile);
    const { total, idle } = summarize(profile);
    console.log(
      `${String(n).padStart(10)}: ${String(thread).padStart(5)} ms | ${(own.us / 1000).toFixed(1).padStart(6)} ms (${own.samples} × ${own.period} µs; the samples' deltas: ${((total - idle) / 1000).toFixed(1)} ms) | ${(own.us / 1000 / thread).toFixed(2)}`,
    );
  }
  session.close();
} finally {
  await stopAll();
}

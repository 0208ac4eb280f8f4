/**
 * A server child's CPU time, asked for over IPC: `{type:'cpu'}` is answered `{type:'result', data: µs}`, the
 * process's user plus system time so far (every thread: the garbage collector's helpers included). The benchmark
 * asks before and after each measured run, so a row can show the server's CPU per request beside its rate: on a
 * machine whose other work comes and goes, CPU per request is steadier than requests per second.
 */
import { tell } from '../child';

export function answerCpuQueries(): void {
  process.on('message', (m: unknown) => {
    if (typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'cpu') {
      const { user, system } = process.cpuUsage();
      tell({ type: 'result', data: user + system });
    }
  });
}

/**
 * Peak memory of a process tree on Linux: `cardspec run --parallel N` starts worker processes, so the figure that
 * matters is the whole tree's, not the parent's. Every `intervalMs` the tree is walked (/proc/<pid>/task/<tid>/children)
 * and each process's own peak resident set (VmHWM) is read; the peak of the run is the sum, over every process
 * seen, of its last-read peak. A process's own peak cannot be missed between samples (the kernel keeps it); only a
 * process that starts and ends between two samples is. Elsewhere than Linux the figure is left empty.
 */
import * as fs from 'node:fs';

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    const text = read(`/proc/${pid}/task/${tid}/children`);
    if (text) for (const c of text.trim().split(/\s+/)) if (c) out.push(Number(c));
  }
  return out;
}

/** VmHWM of a process in bytes, or undefined when it is gone. */
function peakOf(pid: number): number | undefined {
  const status = read(`/proc/${pid}/status`);
  const m = status ? /^VmHWM:\s+([0-9]+)\s+kB/m.exec(status) : null;
  return m ? Number(m[1]) * 1024 : undefined;
}

export interface TreeSampler {
  /** Stops sampling; the peak in bytes (NaN where /proc is not available). */
  stop(): number;
}

export function sampleTree(rootPid: number, intervalMs = 50): TreeSampler {
  const available = fs.existsSync(`/proc/${rootPid}/status`);
  const peaks = new Map<number, number>();
  const sample = (): void => {
    const stack = [rootPid];
    const seen = new Set<number>();
    while (stack.length) {
      const pid = stack.pop() as number;
      if (seen.has(pid)) continue;
      seen.add(pid);
      const peak = peakOf(pid);
      if (peak === undefined) continue;
      peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peak));
      stack.push(...childrenOf(pid));
    }
  };
  if (available) sample();
  const timer = available ? setInterval(sample, intervalMs) : undefined;
  return {
    stop(): number {
      if (timer) clearInterval(timer);
      if (!available) return NaN;
      let total = 0;
      for (const v of peaks.values()) total += v;
      return total;
    },
  };
}

/**
 * A worker process of the self-check (forked by ./runner.ts): it loads the gallery and the steps once, then runs the
 * variants it is handed by name, one at a time, and sends each run back. Variants hold functions, so they never
 * cross the process boundary: only their names and the (plain JSON) runs do.
 */
import { redactText } from '../redact';
import { variantNamed } from './gallery';
import { runVariant, type VariantRunOptions } from './run-variant';
import type { WorkerReply, WorkerTask } from './runner';

function reply(message: WorkerReply): void {
  process.send?.(message);
}

process.on('message', (task: WorkerTask) => {
  if (task.kind === 'stop') {
    // Keep-alive sockets of the finished runs would hold the process open for seconds: nothing is left to do.
    process.exit(0);
  }
  const variant = variantNamed(task.name);
  if (!variant) {
    reply({ kind: 'error', name: task.name, message: `no variant named ${task.name}` });
    return;
  }
  const opts: VariantRunOptions = { fuzz: task.fuzz, exclude: task.exclude, wholeSuite: task.wholeSuite, focus: task.focus };
  runVariant(variant, opts).then(
    (run) => reply({ kind: 'done', run }),
    (e: unknown) => reply({ kind: 'error', name: task.name, message: redactText(e instanceof Error ? e.message : String(e)) }),
  );
});

reply({ kind: 'ready' });

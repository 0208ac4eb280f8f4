/**
 * The reference gateway under a long load, alone in its process: `startGateway` as `cardspec serve --control` runs
 * it (the clock stands still, so nothing ever settles: the ledger's worst case), the ledger at its default bound; or
 * with the argument `contract`, as `cardspec serve --control --contract` runs it (every request also checked and
 * aggregated into the contract report). On `{type:"memory"}` it collects garbage fully and answers its resident set
 * and live heap, so that the parent can read them between runs of load.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { startContractGateway } from '../src/contract';
import { startGateway, type Ledger } from '../src/gateway';
import { failChild, tell } from './child';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const contract = process.argv[2] === 'contract';

async function start(): Promise<{ url: string; ledger: Ledger; close(): Promise<void> }> {
  if (!contract) return startGateway({ control: true, host: '127.0.0.1', port: 0 });
  const cg = await startContractGateway({ control: true, host: '127.0.0.1', port: 0 });
  return { url: cg.url, ledger: cg.gateway.ledger, close: () => cg.close() };
}

start().then((gw) => {
  process.on('message', (m: unknown) => {
    if ((m as { type?: string }).type !== 'memory') return;
    gc();
    const mem = process.memoryUsage();
    tell({ type: 'result', data: { rss: mem.rss, heap: mem.heapUsed, heapTotal: mem.heapTotal, external: mem.external, arrayBuffers: mem.arrayBuffers, records: gw.ledger.size } });
  });
  tell({ type: 'ready', url: gw.url });
  const close = (): void => {
    void gw.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', close);
  process.once('disconnect', close);
}, failChild);

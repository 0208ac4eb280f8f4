/**
 * The reference gateway under test, alone in its process: `startGateway` as `cardspec serve --control` runs it
 * (no request log, the test-control API on for the pair's cachetoken), on a free loopback port. It tells its CPU
 * time when asked (./cpu.ts).
 */
import { startGateway } from '../../src/gateway';
import { failChild, tell } from '../child';
import { answerCpuQueries } from './cpu';

startGateway({ control: true, host: '127.0.0.1', port: 0 }).then((gw) => {
  answerCpuQueries();
  tell({ type: 'ready', url: gw.url });
  const close = (): void => {
    void gw.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', close);
  process.once('disconnect', close);
}, failChild);

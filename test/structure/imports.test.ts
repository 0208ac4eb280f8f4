/**
 * The house's plan (docs/architecture.md): library code never imports src/cli/ (the CLI is a thin shell over a
 * runnable API), and no module depends on itself through others (a cycle makes load order matter and ties two
 * rooms' meanings together). The graph is read from the source of src/, steps/, schemas/ and generators/.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cycles, importGraph } from './graph';

const graph = importGraph();

describe('import graph', () => {
  it('reads the kit (a graph with edges, so the walk itself works)', () => {
    assert.ok(graph.size > 100, `only ${graph.size} modules found`);
    assert.ok(graph.get('src/gateway/index.ts')?.includes('src/gateway/runtime.ts'), 'src/gateway/index.ts -> runtime.ts not seen');
  });

  it('no library module imports src/cli/', () => {
    const offenders = [...graph].filter(([from]) => !from.startsWith('src/cli/')).flatMap(([from, to]) => to.filter((t) => t.startsWith('src/cli/')).map((t) => `${from} -> ${t}`));
    assert.deepEqual(offenders, [], 'library code must not import the CLI: move what it needs out of src/cli/');
  });

  it('no import cycle', () => {
    assert.deepEqual(
      cycles(graph).map((c) => c.join(' <-> ')),
      [],
      'modules importing each other (type imports count): move the shared part into a module both import',
    );
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    assert.deepEqual(cycles(g), [['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });
});

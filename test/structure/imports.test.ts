/**
 * The house's plan (docs/architecture.md): library code never imports src/cli/ (the CLI is a thin shell over a
 * runnable API), and no module depends on itself through others (a cycle makes load order matter and ties two
 * rooms' meanings together), nor does a room through other rooms (a folder of src/, or steps/, schemas/,
 * generators/: a room that needs another's modules while that one needs its own has no floor to stand on, and the
 * map of docs/architecture.md stops being a direction of flow). The graph is read from the source of src/, steps/,
 * schemas/ and generators/.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cycles, importGraph, roomCycles, roomOf } from './graph';

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

  it('no cycle between rooms (the folders of src/, and steps, schemas, generators)', () => {
    assert.deepEqual(roomCycles(graph), [], 'rooms importing each other: move the shared part into the room both stand on, or into a module of its own');
  });

  it('finds a cycle between rooms when there is one (the check can fail)', () => {
    assert.equal(roomOf('src/gateway/routes/http.ts'), 'src/gateway');
    assert.equal(roomOf('src/redact.ts'), 'src/redact.ts');
    assert.equal(roomOf('steps/world.ts'), 'steps');
    const g = new Map([
      ['src/wire/xml.ts', ['src/validate/reading.ts', 'src/redact.ts']],
      ['src/validate/reading.ts', ['src/wire/types.ts']],
      ['src/wire/types.ts', []],
      ['src/redact.ts', ['schemas/fields.ts']],
      ['schemas/fields.ts', []],
      ['src/gateway/a.ts', ['src/gateway/routes/b.ts']],
      ['src/gateway/routes/b.ts', ['src/gateway/a.ts']],
    ]);
    assert.deepEqual(roomCycles(g), [
      'src/validate <-> src/wire: src/validate -> src/wire (src/validate/reading.ts -> src/wire/types.ts); src/wire -> src/validate (src/wire/xml.ts -> src/validate/reading.ts)',
    ]);
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

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { byText } from '../src/order';

describe("one text order, whatever the machine's locale", () => {
  it('orders by code unit, where a locale might not (Danish sorts "aa" after "z")', () => {
    assert.deepEqual(['z', 'aa'].sort(byText), ['aa', 'z']);
    assert.deepEqual(['b', 'B', 'a', 'A'].sort(byText), ['A', 'B', 'a', 'b']);
  });

  it('no code that writes reports or listings sorts with localeCompare', () => {
    const hits: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && readFileSync(path, 'utf8').includes('.localeCompare(')) hits.push(path);
      }
    };
    for (const dir of ['src', 'steps', 'schemas', 'generators']) walk(dir);
    assert.deepEqual(hits, []);
  });
});

/**
 * docs/architecture.md is the map: every module of src/, steps/, schemas/ and generators/ is named in it (by its
 * file name, or its folder for a gallery's many files), so a room moved or added without the map fails here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { importGraph, ROOT } from './graph';

/** Folders whose files the map names as a group (many small files of one kind). */
const GROUPED = ['src/selfcheck/gallery/', 'src/fuzz/models/', 'src/gateway/operations/', 'src/types/', 'generators/'];

it('docs/architecture.md names every module', () => {
  const map = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const missing = [...importGraph().keys()]
    .filter((m) => !GROUPED.some((g) => m.startsWith(g)) && !m.endsWith('/index.ts'))
    .filter((m) => !new RegExp(`(^|[\\s(/,+{])${path.basename(m, '.ts').replace(/[.-]/g, '\\$&')}(\\.ts|\\.\\{|[\\s,)]|$)`, 'm').test(map));
  assert.deepEqual(missing, [], 'add these modules to docs/architecture.md (the map of the house)');
});

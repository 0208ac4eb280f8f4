/**
 * The kit's own import graph, read from the source text (relative imports only: packages are leaves). Small on
 * purpose: the structure tests need edges, not a bundler.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');
/** The folders whose modules make up the kit (tests and benchmarks import them; they are not imported). */
export const LIBRARY_ROOTS = ['src', 'steps', 'schemas', 'generators'];

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(p);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

// import ... from '...'; export ... from '...'; import '...'; require('...'); import('...'). `import type` counts:
// a type-only cycle still ties two modules' meanings together.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, base + '.ts', path.join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Strips comments so that an import quoted in a comment is not an edge. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"])\/\/.*$/gm, '$1');
}

/** module (path relative to the root, `/` separated) -> the kit modules it imports. */
export function importGraph(roots: string[] = LIBRARY_ROOTS): Map<string, string[]> {
  const rel = (p: string): string => path.relative(ROOT, p).split(path.sep).join('/');
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap((r) => walk(path.join(ROOT, r)))) {
    const edges = new Set<string>();
    for (const m of code(fs.readFileSync(file, 'utf8')).matchAll(SPECIFIER)) {
      const target = resolve(file, m[1]);
      if (target) edges.add(rel(target));
    }
    graph.set(rel(file), [...edges].sort());
  }
  return graph;
}

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/**
 * The room a module lives in: a folder of src/ (`src/gateway`, with its subfolders), a module directly in src/
 * (a room of one: `src/redact.ts`), or a top folder of the kit (`steps`, `schemas`, `generators`).
 */
export function roomOf(module: string): string {
  const parts = module.split('/');
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : module;
  return parts[0];
}

/** room -> the rooms its modules import, with one module edge per pair as the example (`from -> to`). */
export function roomGraph(graph: Map<string, string[]>): { rooms: Map<string, string[]>; example: (from: string, to: string) => string } {
  const edges = new Map<string, Map<string, string>>();
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const a = roomOf(from);
      const b = roomOf(to);
      if (a === b) continue;
      const out = edges.get(a) ?? new Map<string, string>();
      if (!out.has(b)) out.set(b, `${from} -> ${to}`);
      edges.set(a, out);
    }
  }
  const rooms = new Map<string, string[]>();
  for (const m of graph.keys()) rooms.set(roomOf(m), [...(edges.get(roomOf(m))?.keys() ?? [])].sort());
  return { rooms, example: (from, to) => edges.get(from)?.get(to) ?? '' };
}

/** Each cycle between rooms, told with one module edge of each step that makes it. */
export function roomCycles(graph: Map<string, string[]>): string[] {
  const { rooms, example } = roomGraph(graph);
  return cycles(rooms).map((scc) => {
    const inside = new Set(scc);
    const steps = scc.flatMap((a) => (rooms.get(a) ?? []).filter((b) => inside.has(b)).map((b) => `${a} -> ${b} (${example(a, b)})`));
    return `${scc.join(' <-> ')}: ${steps.join('; ')}`;
  });
}

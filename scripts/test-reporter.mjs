// A node:test reporter for scripts/test.js: one JSON line per finished test (suites and files left out), so the
// runner can count and print what failed without parsing TAP.
export default async function* reporter(source) {
  for await (const event of source) {
    // What the test file itself printed: shown only when the file fails.
    if (event.type === 'test:stderr' || event.type === 'test:stdout') {
      yield JSON.stringify({ status: 'output', message: String(event.data.message).slice(0, 4000) }) + '\n';
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const d = event.data;
    const type = d.details?.type;
    const err = d.details?.error;
    const cause = err?.cause ?? err;
    yield (
      JSON.stringify({
        status: event.type === 'test:fail' ? 'fail' : d.skip !== undefined && d.skip !== false ? 'skip' : d.todo !== undefined && d.todo !== false ? 'todo' : 'pass',
        name: d.name,
        nesting: d.nesting,
        file: d.file,
        suite: type === 'suite',
        ms: d.details?.duration_ms,
        error: err ? String(cause?.stack ?? cause?.message ?? cause).slice(0, 4000) : undefined,
        failureType: err?.failureType,
      }) + '\n'
    );
  }
}

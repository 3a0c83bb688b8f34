#!/usr/bin/env node
// Prints one closing line, `Tests: N passed, N failed[, N skipped[: REASON]]`, from vitest's
// JSON report, so tools that read a run's last line see the count (and, with
// `--skip-reason REASON`, why tests were skipped). Exits 1 when the report is missing, when
// nothing ran, or when anything failed.
//
//   node scripts/test-summary.mjs [REPORT] [--skip-reason REASON]
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'skip-reason': { type: 'string' } },
});
const path = positionals[0] ?? '.tmp/vitest-report.json';
if (!existsSync(path)) {
  console.error(`no test report at ${path}: the test run did not finish`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(path, 'utf8'));
const passed = report.numPassedTests ?? 0;
// A file that fails to load has no failed test of its own: count each such file once,
// without counting again the files whose failures are already among the failed tests.
const filesFailedToLoad = (report.testResults ?? []).filter(
  (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
).length;
const failed = (report.numFailedTests ?? 0) + filesFailedToLoad;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const why = values['skip-reason'] ? `: ${values['skip-reason']}` : '';
console.log(`Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped${why}` : ''}`);
process.exitCode = failed > 0 || passed === 0 || report.success === false ? 1 : 0;

#!/usr/bin/env node
// Prints the commands README.md tells a newcomer to paste: the first ```sh block under each
// of the headings "Use it" and "Test it", one line each, as `<heading>\t<command>`. CI runs
// them verbatim (.ci/run); a README without them, or with a block of more than one line,
// is an error, so the check cannot pass by finding nothing.
//
//   node scripts/readme-commands.mjs [README.md]
import { readFileSync } from 'node:fs';

const path = process.argv[2] ?? 'README.md';
const text = readFileSync(path, 'utf8');
const headings = ['Use it', 'Test it'];
let failed = false;
for (const heading of headings) {
  const section = new RegExp(`^## ${heading}\\s*$([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(text);
  const block = section && /^```sh\n([\s\S]*?)^```/m.exec(section[1]);
  const lines = block ? block[1].split('\n').filter((l) => l.trim() !== '') : [];
  if (lines.length !== 1) {
    console.error(
      `${path}: section "## ${heading}" needs exactly one command in its first \`\`\`sh block (found ${lines.length})`,
    );
    failed = true;
    continue;
  }
  console.log(`${heading}\t${lines[0]}`);
}
process.exitCode = failed ? 1 : 0;

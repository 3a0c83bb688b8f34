/**
 * The oldest Node.js the CLI runs on: `engines.node` in package.json, as [major, minor]
 * (test/node-version.test.ts keeps the two equal). Older ones lack what the CLI's first
 * line uses (`module.enableCompileCache`, 22.1) and what its dependencies need.
 */
export const minimumNode = [22, 19] as const;

/**
 * Why this Node.js cannot run the CLI, or undefined when it can. `version` as
 * `process.versions.node` gives it ("22.19.0"); a version that does not start with
 * major.minor is not refused, since it cannot be judged.
 */
export function unsupportedNode(version: string): string | undefined {
  const found = /^(\d+)\.(\d+)/.exec(version);
  if (found === null) return undefined;
  const [major, minor] = [Number(found[1]), Number(found[2])];
  const [needMajor, needMinor] = minimumNode;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `needs Node.js ${needMajor}.${needMinor} or later; this is Node.js ${version}`;
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  clusterPhaseRules,
  clusterStateMachine,
  type LaterVersion,
  laterClusterPhaseRules,
  laterMachinePhaseRules,
  machinePhaseRules,
  machineStateMachine,
  phaseDiagram,
  v1alpha1PhaseSpellings,
} from '../../src/phases/index.js';

const page = readFileSync(new URL('../../../../docs/phases.md', import.meta.url), 'utf8');

/** The `phase written` column of the rule table under a `### heading`. */
function ruleTablePhases(heading: string): string[] {
  const section = page.split(`### ${heading}\n`)[1]?.split('\n### ')[0] ?? '';
  return [...section.matchAll(/^\| \d+ \|.*\| `(\w+)` \|$/gm)].map((match) => match[1]!);
}

describe('docs/phases.md', () => {
  it('shows the state diagrams the code computes', () => {
    expect(page).toContain(`\`\`\`mermaid\n${phaseDiagram(machineStateMachine)}\`\`\``);
    expect(page).toContain(`\`\`\`mermaid\n${phaseDiagram(clusterStateMachine)}\`\`\``);
  });

  it('lists the rules in the order the code applies them', () => {
    expect(ruleTablePhases('Machine')).toEqual(machinePhaseRules.map((rule) => rule.phase));
    expect(ruleTablePhases('Cluster')).toEqual(clusterPhaseRules.map((rule) => rule.phase));
  });

  it('lists the rules of every later version in the order the code applies them', () => {
    for (const version of ['v1alpha3', 'v1alpha4', 'v1beta1', 'v1beta2'] as LaterVersion[]) {
      expect(ruleTablePhases(`Machine (${version})`), version).toEqual(
        laterMachinePhaseRules[version].map((rule) => rule.phase),
      );
      expect(ruleTablePhases(`Cluster (${version})`), version).toEqual(
        laterClusterPhaseRules[version].map((rule) => rule.phase),
      );
    }
  });

  it('has a normalisation row for every v1alpha1 spelling', () => {
    for (const { spelling, phase } of v1alpha1PhaseSpellings) {
      const capitalised = spelling[0]!.toUpperCase() + spelling.slice(1);
      const row = page
        .split('\n')
        .find((line) => line.startsWith('| `') && line.includes(`\`${capitalised}\``));
      expect(row, spelling).toContain(`| \`${phase}\` | true |`);
    }
  });
});

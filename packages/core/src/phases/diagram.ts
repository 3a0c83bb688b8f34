import type { PhaseFacts } from './rules.js';
import type { PhaseStateMachine } from './state-machine.js';

/**
 * The state machine as a Mermaid `stateDiagram-v2`: a new object (empty phase) is `[*]`;
 * each arrow is labelled with its smallest trigger sets (`a + b`: both; `a or b`: either);
 * steps that keep the phase are left out.
 */
export function phaseDiagram<Facts extends PhaseFacts, Phase extends string, Event extends string>(
  machine: PhaseStateMachine<Facts, Phase, Event>,
): string {
  const node = (phase: string) => (phase === '' ? '[*]' : phase);
  const lines = ['stateDiagram-v2'];
  for (const { from, to, triggers } of machine.transitions) {
    if (from === to) continue;
    const label = triggers
      .map((set) => (set.length === 0 ? 'first reconcile' : set.join(' + ')))
      .join(' or ');
    lines.push(`  ${node(from)} --> ${node(to)}: ${label}`);
  }
  return `${lines.join('\n')}\n`;
}

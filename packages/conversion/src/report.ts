import { formatObjectName } from '@capi-kit/core/objects';
import type { AppliedMove } from './moves.js';

/** What happened to one object (a document, or one item of a List document). */
export interface ObjectReport {
  readonly kind: string;
  readonly name?: string;
  /** The object's `metadata.generateName`, when it has no name yet. */
  readonly generateName?: string;
  readonly namespace?: string;
  /** `converted`, `unchanged` (other group or already the target version), `removed` (MachineClass). */
  readonly action: 'converted' | 'unchanged' | 'removed';
  readonly from?: string;
  readonly to?: string;
  /** Field moves that applied, in table order; `to` absent means "no home in the target version". */
  readonly moves: readonly AppliedMove[];
  /** Paths whose original values the stash annotation keeps for the way back. */
  readonly stashed: readonly string[];
  /** Paths restored from a stash the object carried. */
  readonly restored: readonly string[];
  /** Stash entries not applied because the field was edited after the stash was written. */
  readonly keptEdits: readonly string[];
  /** Objects a provider plug-in generated for this one (`AWSMachine default/web-0`). */
  readonly generated: readonly string[];
  readonly warnings: readonly string[];
}

export interface DocumentReport {
  /** 0-based index of the input document. */
  readonly index: number;
  readonly line?: number;
  readonly objects: readonly ObjectReport[];
}

export interface ConversionReport {
  /** The target apiVersion. */
  readonly to: string;
  readonly documents: readonly DocumentReport[];
  /** Every warning, prefixed with its document: the text the CLI prints on stderr. */
  readonly warnings: readonly string[];
  /** Count of output documents. */
  readonly outputDocuments: number;
}

/** `Kind ns/name`, or just the kind for an unnamed object. */
export const objectLabel: (o: ObjectReport) => string = formatObjectName;

/** The report as text for people: one block per object that changed. */
/** Where a moved value went, as the text report says it. */
function movedTo(m: AppliedMove): string {
  if (m.unconverted === true) return `(no form ${m.to} can hold; stashed)`;
  return m.to ?? '(no field; stashed)';
}

export function formatReport(report: ConversionReport): string {
  const lines: string[] = [`conversion to ${report.to}: ${report.outputDocuments} document(s) written`];
  for (const doc of report.documents) {
    for (const o of doc.objects) {
      const head = `document ${doc.index + 1}: ${objectLabel(o)}: ${o.action}${o.from && o.to ? ` (${o.from} -> ${o.to})` : ''}`;
      lines.push('', head);
      for (const m of o.moves) lines.push(`  moved   ${m.from} -> ${movedTo(m)}  # ${m.note}`);
      for (const p of o.stashed) lines.push(`  stashed ${p}`);
      for (const p of o.restored) lines.push(`  restored ${p}`);
      for (const p of o.keptEdits) lines.push(`  kept edit ${p} (stash value not applied)`);
      for (const g of o.generated) lines.push(`  generated ${g}`);
      for (const w of o.warnings) lines.push(`  warning ${w}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The raw text of a manifest as kubectl reads it. kubectl's decoder sniffs the text: one whose
 * first non-blank character is `{` goes to encoding/json whole, anything else to go-yaml (v2,
 * through sigs.k8s.io/yaml), which reads YAML 1.1. Two things differ from the `yaml` package,
 * which reads YAML 1.2, before any token is read: which characters break lines, and which
 * characters may stand in the text at all.
 */

const JSON_TEXT = /^\s*\{/;

/** Whether kubectl reads `text` as JSON (encoding/json, the whole text) rather than as YAML documents. */
export const isJsonText = (text: string) => JSON_TEXT.test(text);

/**
 * go-yaml takes YAML 1.1's line breaks: LF, CRLF, a lone CR and NEL (U+0085). To the `yaml`
 * package a lone CR and NEL are ordinary characters, so `name: "x<CR>  y"` was read as
 * "x\r  y" where kubectl folds the break and reads "x y", and a file with old Mac line endings
 * did not parse at all. In a JSON text NEL is an ordinary character in a string: left as is.
 *
 * LS and PS (U+2028, U+2029), also YAML 1.1 breaks, cannot be replaced so: go-yaml breaks a
 * plain scalar or a comment there but keeps them as characters in a quoted or block scalar.
 * They are refused instead (`refusedCharacter`).
 */
const LONE_BREAK = /\r(?!\n)|\u0085/;
const LONE_BREAKS = new RegExp(LONE_BREAK.source, 'g');

/** `text` with each lone CR and NEL written as LF (same length: offsets stay where they were). */
export function goYamlLineBreaks(text: string): string {
  if (!LONE_BREAK.test(text) || JSON_TEXT.test(text)) return text;
  return text.replace(LONE_BREAKS, '\n');
}

/**
 * Characters kubectl refuses to meet raw anywhere in a manifest, comments included: go-yaml
 * the C0 controls but tab, LF and CR, DEL, the C1 controls but NEL, and U+FFFE/U+FFFF
 * ("control characters are not allowed"); encoding/json the C0 controls (a JSON string must
 * escape them, and outside strings they are no JSON). An escape in a double-quoted string
 * (`"\e"`, `"\u001b"`) is how a manifest holds one.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is refused
const YAML_REFUSED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ufffe\uffff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is refused
const JSON_REFUSED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** LS and PS, raw in a YAML text: see `goYamlLineBreaks`. (`a: <LS>` is null to kubectl.) */
const YAML_AMBIGUOUS_BREAK = /[\u2028\u2029]/;

/**
 * The first character of `text` kubectl refuses, or reads as a line break where other YAML
 * readers do not: where it stands, and why (`U+001B is a control character …`).
 */
export function refusedCharacter(text: string): { offset: number; message: string } | undefined {
  const json = JSON_TEXT.test(text);
  const control = (json ? JSON_REFUSED : YAML_REFUSED).exec(text);
  const lineBreak = json ? null : YAML_AMBIGUOUS_BREAK.exec(text);
  const found =
    lineBreak === null || (control !== null && control.index < lineBreak.index) ? control : lineBreak;
  if (found === null) return undefined;
  const name = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  const why =
    found === lineBreak
      ? 'is a line break to kubectl (YAML 1.1) in some places and a character in others'
      : 'is a control character kubectl refuses in a manifest ("control characters are not allowed")';
  return {
    offset: found.index,
    message: `${name} ${why}; in a string, write it as an escape in double quotes`,
  };
}

/**
 * What may follow `---` on its line: spaces and tabs, then the line's end or a comment.
 * (A comment needs a space before it: `---#c` is no document marker to YAML.)
 */
const SEPARATOR_REST = /[ \t]*(?:\r?(?:\n|$)|(?<=[ \t])#)/y;

/** `---` as a document marker to go-yaml right after a lone CR or NEL, where kubectl sees no line start. */
const MARKER_AFTER_LONE_BREAK = /(?:\r(?!\n)|\u0085)---(?=[ \t\r\n\u0085]|$)/;

/**
 * Where kubectl would split the raw `input` (a YAML text) into documents other than the YAML
 * reader does. kubectl splits a manifest itself before go-yaml reads it (apimachinery's
 * `YAMLReader`): at every line, as LF ends lines, that starts with `---`, and it refuses such
 * a line with anything after the `---` but spaces and a comment ("invalid Yaml document
 * separator": `--- a: 1`, `--- {a: 1}`, `--- |`, `--- !!map`, `----`, `---a: 1`). Refused
 * too: `---#c` (a separator to kubectl, text to YAML), and `---` after a lone CR or NEL (a
 * line break to go-yaml, not to kubectl's splitter, so go-yaml reads both documents as one
 * part and keeps only the first). Only the lines that start with `---` are looked at.
 */
export function separatorProblem(input: string): { offset: number; message: string } | undefined {
  if (JSON_TEXT.test(input)) return undefined;
  const next = (from: number) => {
    const i = input.indexOf('\n---', from);
    return i === -1 ? -1 : i + 1;
  };
  for (let line = input.startsWith('---') ? 0 : next(0); line !== -1; line = next(line)) {
    SEPARATOR_REST.lastIndex = line + 3;
    if (SEPARATOR_REST.test(input)) continue;
    const end = input.indexOf('\n', line);
    const rest = input.slice(line + 3, end === -1 ? undefined : end);
    const offset = line + 3 + (/^[ \t]*/.exec(rest)?.[0].length ?? 0);
    const kept = rest.trim();
    const message =
      kept === '' || kept.startsWith('#')
        ? 'kubectl takes this line for a document separator (`---`, then space or a comment), other YAML readers for text; write `---` alone, or a space between `---` and `#`'
        : 'a line that starts with `---` may hold nothing after it but a comment: kubectl splits a manifest at such lines and refuses this one ("invalid Yaml document separator"); start the content on the next line';
    return { offset, message };
  }
  if (!LONE_BREAK.test(input)) return undefined;
  const marker = MARKER_AFTER_LONE_BREAK.exec(input);
  if (marker === null) return undefined;
  return {
    offset: marker.index + 1,
    message:
      '`---` after a lone CR or NEL line break: kubectl splits a manifest into documents only at LF line breaks, so it would skip the documents from here on; end lines with LF or CRLF',
  };
}

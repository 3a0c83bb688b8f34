/**
 * kubectl reads a YAML manifest with go-yaml, which takes YAML 1.1's line breaks: LF, CRLF,
 * a lone CR and NEL (U+0085). The `yaml` package follows YAML 1.2, where a lone CR and NEL
 * are ordinary characters. So `name: "x<CR>y"` was read as "x\ry" where kubectl folds the
 * break and reads "x y", and a file with old Mac line endings did not parse at all.
 *
 * A text whose first non-blank character is `{` is JSON to kubectl (its decoder sniffs for
 * it and hands the whole stream to encoding/json, where NEL is an ordinary character in a
 * string): that text is left as it is.
 *
 * LS and PS (U+2028, U+2029), also YAML 1.1 breaks, are not handled here: go-yaml keeps
 * them as characters in scalars, so a plain replacement would change those strings.
 */
const LONE_BREAK = /\r(?!\n)|\u0085/;
const LONE_BREAKS = new RegExp(LONE_BREAK.source, 'g');
const JSON_TEXT = /^\s*\{/;

/** `text` with each lone CR and NEL written as LF (same length: offsets stay where they were). */
export function goYamlLineBreaks(text: string): string {
  if (!LONE_BREAK.test(text) || JSON_TEXT.test(text)) return text;
  return text.replace(LONE_BREAKS, '\n');
}

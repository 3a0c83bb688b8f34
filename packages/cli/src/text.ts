// Text output shows names, IDs and messages from the cluster: control characters in them
// are escaped so they cannot move the cursor, recolour the terminal or forge lines.

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `text` with every C0/C1 control character (and DEL) written as `\xNN`. */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** `printable` for text of several lines: each line escaped, the line breaks kept. */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/**
 * What no YAML output may hold raw: the C0 controls but tab and line feed, DEL, the C1
 * controls, bidi controls, other format and default-ignorable characters, white space other
 * than U+0020, unpaired surrogates and tag characters.
 */
export const RAW_IN_YAML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what must not appear
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u180e\u00ad\u00a0\u2000-\u200a\u3000\u1680\u205f\u202f\u2028\u2029]|\p{Cs}|[\u{e0000}-\u{e0fff}]/u;

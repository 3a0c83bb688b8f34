/**
 * `text`, an error message bound for logs and terminals, without the credentials fetch quotes
 * into its own errors:
 * - a header value it refuses is quoted whole (`"Bearer <token>" is an invalid header value`):
 *   the token is replaced up to the closing quote, or to the end when there is none;
 * - a URL with a user name or password is quoted whole too (`Request cannot be constructed
 *   from a URL that includes credentials: https://admin:<password>@host/…`): what stands
 *   between `://` and `@` is replaced.
 * Each pattern starts at a fixed text (`Bearer `, `://`) and stops at the first character
 * that ends it, so the scan is linear however long and hostile the message.
 */
export function withoutCredentials(text: string): string {
  return text.replace(/Bearer [^"]*/g, 'Bearer <redacted>').replace(/:\/\/[^/\s"@]*@/g, '://<redacted>@');
}

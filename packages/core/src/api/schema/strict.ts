import type * as t from 'io-ts';

/**
 * A codec that can make a strict twin of itself: same checks, plus an error for every
 * field its schema does not define. Composite codecs (objects, arrays, maps, nullable)
 * implement it; scalars and free-form objects (RawExtension) have no strict form.
 */
export interface HasStrictForm {
  readonly strictForm: () => t.Mixed;
}

function hasStrictForm(codec: t.Mixed): codec is t.Mixed & HasStrictForm {
  return typeof (codec as Partial<HasStrictForm>).strictForm === 'function';
}

/** The strict twin of `codec` (memoised by each composite codec), or `codec` itself for scalars. */
export function strict<C extends t.Mixed>(codec: C): t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  return hasStrictForm(codec) ? (codec.strictForm() as C) : codec;
}

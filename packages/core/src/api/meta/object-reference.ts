import type * as t from 'io-ts';
import { string, struct } from '../schema/index.js';

/** `corev1.ObjectReference`: every field optional. */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** The fields of ObjectReference, shared with the v1alpha1 MachineClassRef that inlines it. */
export const objectReferenceFields = {
  kind: string,
  namespace: string,
  name: string,
  uid: string,
  apiVersion: string,
  resourceVersion: string,
  fieldPath: string,
} as const;

export const ObjectReferenceCodec: t.Type<ObjectReference> = struct(
  'ObjectReference',
  {},
  objectReferenceFields,
);

// JSON schemas of the Kubernetes types that Cluster API objects embed, written from the
// Kubernetes OpenAPI (required lists and formats as the API server publishes them). The
// v1alpha1 CRDs leave these places as a bare `type: object`; the fidelity test uses these
// schemas as the oracle there. They are independent of the codecs under test.

export type JsonSchema = { [key: string]: unknown };

const str: JsonSchema = { type: 'string' };
const bool: JsonSchema = { type: 'boolean' };
const int64: JsonSchema = { type: 'integer', format: 'int64' };
const time: JsonSchema = { type: 'string', format: 'date-time' };
const stringMap: JsonSchema = { type: 'object', additionalProperties: str };
const freeObject: JsonSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

export const ownerReference = object(
  { apiVersion: str, kind: str, name: str, uid: str, controller: bool, blockOwnerDeletion: bool },
  ['apiVersion', 'kind', 'name', 'uid'],
);

/**
 * metav1.ObjectMeta. `creationTimestamp` is a Time value: Go writes a zero one as null.
 * `labels` and `annotations` are Go maps: the API server (Go's JSON decoder) reads a null
 * one as an empty map, and a YAML `labels:` with nothing after it is that null.
 */
export const objectMeta = object({
  name: str,
  generateName: str,
  namespace: str,
  selfLink: str,
  uid: str,
  resourceVersion: str,
  generation: int64,
  creationTimestamp: { ...time, nullable: true },
  deletionTimestamp: time,
  deletionGracePeriodSeconds: int64,
  labels: { ...stringMap, nullable: true },
  annotations: { ...stringMap, nullable: true },
  ownerReferences: { type: 'array', items: ownerReference },
  initializers: freeObject,
  finalizers: { type: 'array', items: str },
  clusterName: str,
  managedFields: {
    type: 'array',
    items: object({
      manager: str,
      operation: str,
      apiVersion: str,
      time,
      fieldsType: str,
      fieldsV1: freeObject,
      subresource: str,
    }),
  },
});

export const listMeta = object({
  selfLink: str,
  resourceVersion: str,
  continue: str,
  remainingItemCount: int64,
});

export const objectReferenceProperties = {
  kind: str,
  namespace: str,
  name: str,
  uid: str,
  apiVersion: str,
  resourceVersion: str,
  fieldPath: str,
};
export const objectReference = object(objectReferenceProperties);

export const labelSelector = object({
  matchLabels: stringMap,
  matchExpressions: {
    type: 'array',
    items: object({ key: str, operator: str, values: { type: 'array', items: str } }, ['key', 'operator']),
  },
});

export const taint = object({ key: str, value: str, effect: str, timeAdded: time }, ['key', 'effect']);

export const nodeAddress = object({ type: str, address: str }, ['type', 'address']);

/** corev1.NodeCondition: the two times are Time values, written as null when zero. */
export const nodeCondition = object(
  {
    type: str,
    status: str,
    lastHeartbeatTime: { ...time, nullable: true },
    lastTransitionTime: { ...time, nullable: true },
    reason: str,
    message: str,
  },
  ['type', 'status'],
);

export const nodeConfigSource = object({
  configMap: object({ namespace: str, name: str, uid: str, resourceVersion: str, kubeletConfigKey: str }, [
    'namespace',
    'name',
    'kubeletConfigKey',
  ]),
});

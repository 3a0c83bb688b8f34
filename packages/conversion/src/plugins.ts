import * as E from 'fp-ts/lib/Either.js';
import type { JsonObject } from './path.js';
import type { ConvertibleKind } from './versions.js';

/**
 * Provider plug-ins. v1alpha1 kept everything cloud-specific in an opaque
 * `spec.providerSpec.value`; v1alpha2 moved it into separate infrastructure objects
 * (AWSMachine, VSphereCluster, …) and a bootstrap config (KubeadmConfig), referenced from
 * the Cluster API object. Only the provider knows that split, so each provider package
 * supplies a plug-in, and this package asks the first plug-in that claims the
 * providerSpec's `apiVersion` / `kind`.
 */

export const INFRASTRUCTURE_V1ALPHA2 = 'infrastructure.cluster.x-k8s.io/v1alpha2';
export const BOOTSTRAP_V1ALPHA2 = 'bootstrap.cluster.x-k8s.io/v1alpha2';

/** A corev1.ObjectReference as v1alpha2 writes it. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

export function objectRef(apiVersion: string, kind: string, name: string, namespace?: string): ObjectRef {
  return namespace === undefined ? { apiVersion, kind, name } : { apiVersion, kind, name, namespace };
}

/** The `apiVersion` / `kind` pair that identifies a providerSpec type. */
export interface ProviderSpecType {
  readonly apiVersion: string;
  readonly kind: string;
}

export interface OwnerInfo {
  readonly kind: ConvertibleKind;
  readonly name: string;
  readonly namespace?: string;
}

/** The Cluster a Machine belongs to (by its cluster-name label), when the manifest holds it. */
export interface ClusterInfo {
  readonly name: string;
  readonly namespace?: string;
  /** The Cluster's v1alpha1 `spec.providerSpec.value`, if any. */
  readonly providerSpec?: JsonObject;
}

interface CommonInput {
  /** The v1alpha1 object being converted. */
  readonly owner: OwnerInfo;
  /** The providerSpec value: inline, or resolved from a MachineClass. */
  readonly providerSpec: JsonObject;
  /** Where `providerSpec` came from, for the report (`spec.providerSpec.value`, `MachineClass ns/x`). */
  readonly providerSpecSource: string;
}

export interface ClusterPluginInput extends CommonInput {}

export interface MachinePluginInput extends CommonInput {
  /** Value of the cluster-name label, if any. */
  readonly clusterName?: string;
  readonly cluster?: ClusterInfo;
  /** v1alpha1 `spec.versions.controlPlane` was set. */
  readonly controlPlane: boolean;
  /** The desired Kubernetes version (v1alpha2 `spec.version`). */
  readonly version?: string;
  /** The Machine's `spec.providerID` (infrastructure machines carry it in v1alpha2). */
  readonly providerID?: string;
}

/** What a plug-in hands back: the references to set and the objects to add to the manifest. */
export interface PluginOutput {
  readonly infrastructureRef: ObjectRef;
  /** Machines and machine templates must get one: v1alpha2 requires `spec.bootstrap`. */
  readonly bootstrap?: { readonly configRef: ObjectRef };
  /** New documents (infrastructure objects, bootstrap configs, Secrets), in output order. */
  readonly objects: readonly JsonObject[];
  /** Which providerSpec field went where, e.g. `keyName` → `AWSMachine default/m0 spec.sshKeyName`. */
  readonly moves: readonly { readonly from: string; readonly to: string }[];
  /** providerSpec fields with no v1alpha2 home (they remain in the stash) and other notes. */
  readonly warnings: readonly string[];
  /**
   * Key pairs (`{cert, key}` at `field`, dotted, in the providerSpec value) that went into a
   * Secret of `objects` (`tls.crt` / `tls.key`, named `<object>-<suffix>`): their private keys
   * are left out of the stash, which names the Secret instead (key-pairs.ts).
   */
  readonly keyPairs?: readonly { readonly field: string; readonly secret: string }[];
  /**
   * String fields of the providerSpec value (credentials, `field` a top-level key) whose value
   * went into a Secret of `objects` (`<object>-<suffix>`, data key the field's own name, made
   * with `credentialsSecret`): left out of the stash, which names the Secret instead
   * (secret-fields.ts).
   */
  readonly secretFields?: readonly { readonly field: string; readonly secret: string }[];
}

/** The references a `machine` or `machineTemplate` hook sets on the Cluster API object. */
export interface MachineReferences {
  readonly infrastructureRef: ObjectRef;
  readonly bootstrap: { readonly configRef: ObjectRef };
}

export interface ConversionPlugin {
  /** Short name: `aws`, `vsphere`. */
  readonly name: string;
  /** The providerSpec types this plug-in converts. */
  readonly handles: readonly ProviderSpecType[];
  /** Cluster `spec.providerSpec` → infrastructure cluster object. */
  readonly cluster: (input: ClusterPluginInput) => PluginResult;
  /** Machine `spec.providerSpec` → infrastructure machine + bootstrap config. */
  readonly machine: (input: MachinePluginInput) => PluginResult;
  /** MachineSet / MachineDeployment template → infrastructure machine template + bootstrap config template. */
  readonly machineTemplate: (input: MachinePluginInput) => PluginResult;
  /**
   * The references `machine` (or `machineTemplate`, with `template`) sets for `input`, without
   * building the objects. The way down asks for them on every Machine, MachineSet and
   * MachineDeployment whose stash lists references as generated, to check that list (see
   * `generatedByPlugin`); without it, the hook itself is asked, objects and all. It must
   * agree with the hooks whenever they succeed: `machineHooks` makes all three from one kind.
   */
  readonly machineReferences?: (input: MachinePluginInput, template: boolean) => MachineReferences;
  /**
   * Every kind its hooks can make (infrastructure, bootstrap, Secrets). `capi-kit migrate
   * verify` lists these even when the plan has none of them, to find what an earlier apply
   * made for a v1alpha1 object deleted since. Without it, only the plan's kinds are listed.
   */
  readonly generates?: readonly GeneratedKind[];
}

/** The `apiVersion` / `kind` of objects a plug-in makes. */
export interface GeneratedKind {
  readonly apiVersion: string;
  readonly kind: string;
}

/** The type a providerSpec value declares, if it declares one. */
export function providerSpecType(value: JsonObject): Partial<ProviderSpecType> {
  return {
    ...(typeof value.apiVersion === 'string' ? { apiVersion: value.apiVersion } : {}),
    ...(typeof value.kind === 'string' ? { kind: value.kind } : {}),
  };
}

/** The first plug-in that claims the providerSpec type. */
export function findPlugin(
  plugins: readonly ConversionPlugin[],
  value: JsonObject,
): ConversionPlugin | undefined {
  // Plain loops over the fields: this runs once per converted Machine, MachineSet and MachineDeployment.
  const { apiVersion, kind } = value;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  for (const plugin of plugins) {
    for (const h of plugin.handles) if (h.apiVersion === apiVersion && h.kind === kind) return plugin;
  }
  return undefined;
}

/**
 * Why a plug-in cannot convert a providerSpec. `path` is relative to the providerSpec value
 * (`networkSpec.vpc`), when one field is to blame.
 */
export interface PluginError {
  readonly code: 'plugin-refused';
  readonly message: string;
  readonly path?: string;
}

/** What a plug-in hook returns: the output, or why the providerSpec cannot be converted. */
export type PluginResult = E.Either<PluginError, PluginOutput>;

/** A plug-in's success, without the plug-in package needing fp-ts itself. */
export function pluginOk(output: PluginOutput): PluginResult {
  return E.right(output);
}

/**
 * A plug-in's failure: the message is shown after the document and providerSpec path (and
 * `path`, the field within the providerSpec, when given).
 */
export function pluginFail(message: string, path?: string): PluginResult {
  return E.left({ code: 'plugin-refused', message, ...(path === undefined ? {} : { path }) });
}

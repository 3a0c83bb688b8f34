// The string patterns of the Cluster API CRDs (kubebuilder `Pattern` markers), named by
// what they accept. Each is the CRD's regular expression as written, with the `u` flag
// (the API server reads them as RE2 over Unicode text). None has the `g` or `y` flag, so
// `test` keeps no state between calls.

/** A DNS-1123 subdomain: lowercase alphanumerics, `-` and `.` (object names, API groups). */
export const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/u;

/** A DNS-1123 label: lowercase alphanumerics and `-` (namespaces). */
export const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/u;

/** A Kubernetes qualified name with an optional DNS-subdomain prefix (condition types). */
export const qualifiedName =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/u;

/** A taint key: the qualified-name grammar, written slightly differently in the CRD. */
export const taintKey =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/u;

/** A label value (may be empty). */
export const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/u;

/** `group/version`, e.g. `infrastructure.cluster.x-k8s.io/v1beta2`. */
export const groupVersion =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[a-z]([-a-z0-9]*[a-z0-9])?$/u;

/** A kind name such as `AWSMachineTemplate`. */
export const kindName = /^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$/u;

/** A metav1.Condition reason: CamelCase with `_`, `,` and `:` inside. */
export const conditionReason = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/u;

/** A MachineHealthCheck unhealthy range, `[min-max]`. */
export const unhealthyRange = /^\[[0-9]+-[0-9]+\]$/u;

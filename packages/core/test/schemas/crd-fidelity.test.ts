import { validObjects } from './support/arbitraries.js';
import { buildOracles } from './support/crd-oracle.js';
import { describeFidelity } from './support/fidelity.js';

// The codecs against the CRD OpenAPI schemas, checked with ajv (see support/crd-oracle.ts).
// For every kind of v1alpha1 and v1alpha2, Lists included (the later versions: one file each,
// crd-fidelity-<version>.test.ts, with objects generated from their CRDs): at least 10,000 generated cases, valid
// objects and single mutations of them. For each case:
//   lenient codec verdict == reference verdict, strict codec verdict == closed reference verdict,
// and wherever the reference and the raw CRD disagree, the mutated place lies under a
// documented refinement (embedded Kubernetes type, Go null, Go integer range, fixed type
// meta, or v1alpha1's preserved unknown fields). Those disagreements are counted per rule.

describeFidelity(buildOracles(), validObjects());

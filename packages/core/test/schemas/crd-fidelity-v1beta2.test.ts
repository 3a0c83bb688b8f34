import { laterObjects } from './support/crd-arbitraries.js';
import { buildOracles, loadLaterCrds } from './support/crd-oracle.js';
import { describeFidelity } from './support/fidelity.js';

// cluster.x-k8s.io/v1beta2: every typed kind and its List against the CRD schema of the release
// that stores v1beta2 (testdata/crds/later), as crd-fidelity.test.ts does for the first versions.
// The valid objects are generated from the same CRD schema; the refinements that apply here
// (IntOrString ranges, minProperties after pruning, Go nulls, ObjectMeta, type meta) are
// listed in support/crd-oracle.ts.

const crds = loadLaterCrds().filter((crd) => crd.version === 'v1beta2');
describeFidelity(buildOracles(undefined, crds), laterObjects(crds));

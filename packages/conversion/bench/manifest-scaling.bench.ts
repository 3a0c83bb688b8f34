// Linear time in the size of a manifest: `convertDocuments` on 10,000 / 40,000 / 80,000
// v1alpha1 Machines, each with the MachineClass it names, up to v1alpha2 with the AWS plug-in.
// Every Machine looks its class up by name and namespace. `RATIO …/80k-over-10k` is the
// 80,000 time ÷ the 10,000 time: linear ≈ 8, quadratic ≈ 64 (a list searched per lookup made
// 40,000 pairs take 9.3 s where 20,000 took 2.4 s).
//
//   pnpm --filter @capi-kit/conversion bench
//   node --conditions=@capi-kit/source --import tsx packages/conversion/bench/manifest-scaling.bench.ts
import * as E from 'fp-ts/lib/Either.js';
import { measureScaling } from '../../../scripts/bench-scaling.js';
import { awsConversionPlugin } from '../../providers-aws/dist/conversion/index.js';
import { convertDocuments, type InputDocument } from '../dist/manifest.js';
import { V1ALPHA1, V1ALPHA2 } from '../dist/versions.js';

/** `size` Machines and their MachineClasses, spread over 50 namespaces. */
function manifest(size: number): InputDocument[] {
  const documents: InputDocument[] = [];
  for (let i = 0; i < size; i++) {
    const namespace = `team-${i % 50}`;
    documents.push({
      index: documents.length,
      value: {
        apiVersion: V1ALPHA1,
        kind: 'MachineClass',
        metadata: { name: `class-${i}`, namespace },
        providerSpec: {
          apiVersion: 'awsprovider/v1alpha1',
          kind: 'AWSMachineProviderSpec',
          instanceType: 't3.small',
        },
      },
    });
    documents.push({
      index: documents.length,
      value: {
        apiVersion: V1ALPHA1,
        kind: 'Machine',
        metadata: { name: `machine-${i}`, namespace },
        spec: {
          versions: { kubelet: 'v1.15.3' },
          providerSpec: { valueFrom: { machineClass: { name: `class-${i}` } } },
        },
      },
    });
  }
  return documents;
}

await measureScaling('manifest-machine-classes', 'Machines', (size) => {
  const documents = manifest(size);
  return () => {
    const result = convertDocuments(documents, { to: V1ALPHA2, plugins: [awsConversionPlugin] });
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left[0]));
    // each Machine, its AWSMachine and its KubeadmConfig; the classes are left out
    if (result.right.documents.length !== 3 * size)
      throw new Error(`${result.right.documents.length} documents`);
  };
});

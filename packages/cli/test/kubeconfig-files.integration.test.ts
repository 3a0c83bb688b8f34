import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../src/kubeconfig.js';
import { captureIO } from './helpers/capture-io.js';

// A kubeconfig that names its CA, client certificate and key as files, against a real API
// server: they are read once, bounded, when the kubeconfig loads. client-node read each file
// whole on every request, so one that grew (or was swapped for a huge one) after the checks
// was read without bound.

const env = useControlPlane();
const dir = mkdtempSync(join(tmpdir(), 'capi-kit-kubeconfig-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The control plane's kubeconfig with its CA, certificate and key written to files it names (relative paths). */
function kubeconfigNamingFiles(): string {
  const cluster = env.kubeConfig.getCurrentCluster();
  const user = env.kubeConfig.getCurrentUser();
  const pem = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64');
  writeFileSync(join(dir, 'ca.pem'), pem(cluster?.caData));
  writeFileSync(join(dir, 'cert.pem'), pem(user?.certData));
  writeFileSync(join(dir, 'key.pem'), pem(user?.keyData));
  const path = join(dir, 'kubeconfig');
  writeFileSync(
    path,
    `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: '${cluster?.server}', certificate-authority: ca.pem}}]
users: [{name: u, user: {client-certificate: cert.pem, client-key: key.pem}}]
contexts: [{name: x, context: {cluster: c, user: u, namespace: '${env.namespace}'}}]
current-context: x
`,
  );
  return path;
}

describe('certificate, key and CA files a kubeconfig names (real API server)', () => {
  it('are read once, when it loads: requests go on with what they held after the files are gone', async () => {
    const config = await loadKubeConfig(captureIO('', { KUBECONFIG: kubeconfigNamingFiles() }).io);
    const leases = () =>
      config.makeApiClient(CoordinationV1Api).listNamespacedLease({ namespace: env.namespace });
    await expect(leases()).resolves.toMatchObject({ items: [] });
    // (read again, each would be read whole, however large it had grown; gone, each read fails)
    for (const name of ['ca.pem', 'cert.pem', 'key.pem']) rmSync(join(dir, name));
    await expect(leases()).resolves.toMatchObject({ items: [] });
  });
});

import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { createCertificateAuthority } from '@capi-kit/envtest/pki';

/**
 * An API server that completes TLS and then never writes a byte back: what a hung proxy or
 * a wedged apiserver looks like to a client. `kubeconfig` reaches it (its CA trusted, a
 * token user), so only a request deadline ends a request to it.
 */
export interface SilentServer {
  readonly url: string;
  /** A whole kubeconfig whose current context is this server. */
  readonly kubeconfig: string;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const ca = await createCertificateAuthority('silent-server-ca');
  const serving = await ca.issueServerCertificate(['127.0.0.1']);
  const sockets = new Set<TLSSocket>();
  const server = createTlsServer({ cert: serving.certPem, key: serving.keyPem }, (socket) => {
    sockets.add(socket);
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const url = `https://127.0.0.1:${port}`;
  const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: silent
  cluster: {certificate-authority-data: ${Buffer.from(ca.certPem).toString('base64')}, server: '${url}'}
users:
- name: silent
  user: {token: t}
contexts:
- name: silent
  context: {cluster: silent, user: silent}
current-context: silent
`;
  return {
    url,
    kubeconfig,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

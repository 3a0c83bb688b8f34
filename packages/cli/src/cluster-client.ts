import type { CapiClient } from '@capi-kit/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { KubeconfigError, loadKubeConfig } from './kubeconfig.js';
import { commandNamespace } from './names.js';
import { printable } from './text.js';

/**
 * Loads the kubeconfig and connects to the management cluster (discovery included).
 * On failure the reason is on stderr and the result is the exit code (3).
 */
export async function connectManagement(
  io: CliIO,
  command: string,
  kubeconfigFile: string | undefined,
): Promise<CapiClient | number> {
  const loaded = await loadKubeConfigOrReport(io, command, kubeconfigFile);
  if (typeof loaded === 'number') return loaded;
  // Loaded on first use: client-node and the codecs take a while to import.
  const { connect } = await import('@capi-kit/client');
  const client = await connect(loaded);
  if (client._tag === 'Left') {
    io.stderr(`capi-kit ${command}: ${printable(client.left.message)}\n`);
    return ExitCode.cluster;
  }
  return client.right;
}

/**
 * The shared kubeconfig loader, with an unusable kubeconfig reported on stderr as a
 * cluster error: the result is then the exit code (3).
 */
export async function loadKubeConfigOrReport(
  io: CliIO,
  command: string,
  file: string | undefined,
  context?: string,
): Promise<KubeConfig | number> {
  try {
    return await loadKubeConfig(io, file, context);
  } catch (error) {
    if (!(error instanceof KubeconfigError)) throw error;
    io.stderr(`capi-kit ${command}: ${printable(error.message)}\n`);
    return ExitCode.cluster;
  }
}

/** The namespace a command works in: `-n`, else the kubeconfig context's, else `default` (names.ts). */
export function namespaceOf(client: CapiClient, flag: string | undefined): string {
  const context = client.kubeConfig.getContextObject(client.kubeConfig.getCurrentContext());
  return commandNamespace(flag, context?.namespace);
}

import { CoordinationV1Api, type KubeConfig } from '@kubernetes/client-node';

/**
 * Rewrites a stored Lease's holder identity, as anyone who can write Leases may: the API
 * server does not check it, so a holder is untrusted text to every command that prints it.
 */
export async function setLeaseHolder(
  kubeConfig: KubeConfig,
  at: { name: string; namespace: string },
  holder: string,
): Promise<void> {
  const api = kubeConfig.makeApiClient(CoordinationV1Api);
  const current = await api.readNamespacedLease(at);
  current.spec!.holderIdentity = holder;
  await api.replaceNamespacedLease({ ...at, body: current });
}

/** A control character other than the newlines a command writes itself (their count is checked apart). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: what must not reach a terminal
export const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

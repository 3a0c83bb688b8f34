import type { KubeConfig } from '@kubernetes/client-node';
import { NodeLeaseClient, type NodeLeaseClientOptions } from '../../src/index.js';

/**
 * The shortest timing the validation rules allow comfortably on a shared 2-core machine:
 * a 2 s lease, given up by its holder after 1.5 s without renewal, renewed every 0.4 s
 * (at most 0.48 s with jitter).
 */
export const fastTiming = { leaseDurationSeconds: 2, renewDeadlineMs: 1500, retryPeriodMs: 400 } as const;

/** A test client's options: `fastTiming` unless `options` say otherwise. */
export function leaseClientOptions(
  kubeConfig: KubeConfig,
  namespace: string,
  holderIdentity: string,
  options: Partial<NodeLeaseClientOptions> = {},
): NodeLeaseClientOptions {
  return { kubeConfig, namespace, holderIdentity, timing: fastTiming, ...options };
}

export function leaseClient(...args: Parameters<typeof leaseClientOptions>): NodeLeaseClient {
  return new NodeLeaseClient(leaseClientOptions(...args));
}

/** A unique node name per test, so tests in one namespace never share a lease. */
let counter = 0;
export function nodeName(label: string): string {
  counter++;
  return `${label}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

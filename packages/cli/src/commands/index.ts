import type { CommandEntry } from '../command.js';

/**
 * Every subcommand, in the order `--help` lists them. A new command is one module in this
 * folder (exporting its `CommandBody`) plus one row here. A command's module, and with it
 * the packages it uses, is imported only when that command runs, so `capi-kit --version`
 * or `capi-kit providerid ...` never loads the Kubernetes client or the converters.
 */
export const commands: readonly CommandEntry[] = [
  {
    name: 'convert',
    summary: 'convert manifests between any Cluster API versions (v1alpha1 … v1beta2), losslessly',
    load: async () => (await import('./convert.js')).convertCommand,
  },
  {
    name: 'validate',
    summary: 'check Cluster API manifests against the schemas of every version (v1alpha1 to v1beta2)',
    load: async () => (await import('./validate.js')).validateCommand,
  },
  {
    name: 'phase',
    summary: 'compute the phase of each Machine and Cluster in a manifest (v1alpha2 to v1beta2)',
    load: async () => (await import('./phase.js')).phaseCommand,
  },
  {
    name: 'providerid',
    summary: 'parse providerIDs of every cloud, and match node IDs to machine IDs',
    load: async () => (await import('./providerid.js')).providerIDCommand,
  },
  {
    name: 'migrate',
    summary: 'move a live management cluster from v1alpha1 to v1alpha2: plan, apply, verify, prune',
    load: async () => (await import('./migrate.js')).migrateCommand,
  },
  {
    name: 'lease',
    summary: 'acquire, renew, release, hold or inspect the maintenance lease of a node',
    load: async () => (await import('./lease.js')).leaseCommand,
  },
  {
    name: 'get',
    summary: 'list Clusters, Machines, MachineSets or MachineDeployments of a live management cluster',
    load: async () => (await import('./get.js')).getCommand,
  },
  {
    name: 'describe',
    summary: 'describe a Cluster: its machines, their nodes, maintenance leases and problems',
    load: async () => (await import('./describe.js')).describeCommand,
  },
  {
    name: 'autoscaler',
    summary: "list node groups and find a node's group, as cluster-autoscaler sees them",
    load: async () => (await import('./autoscaler.js')).autoscalerCommand,
  },
];

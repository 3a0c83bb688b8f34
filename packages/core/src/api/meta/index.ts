// Kubernetes types that Cluster API objects embed, shared by both versions.

export { IntOrString, MicroTime, RawExtension, Time } from '../schema/index.js';
export * from './label-selector.js';
export * from './node.js';
export * from './object-meta.js';
export * from './object-reference.js';
export type { ListItem } from './resource.js';

import type { ControlPlaneConnection } from '../connection.js';

/**
 * What the global setup hands to test workers under the key `capiKitEnvtest`: the
 * connection to the shared control plane, or why there is none.
 */
export type ProvidedControlPlane =
  | { available: true; connection: ControlPlaneConnection }
  | { available: false; reason: string };

/** The `provide`/`inject` key. */
export const providedKey = 'capiKitEnvtest';

declare module 'vitest' {
  export interface ProvidedContext {
    capiKitEnvtest: ProvidedControlPlane;
  }
}

import type { LeaseInspection } from './inspection.js';

/** The outcome of one acquisition attempt. */
export type AcquireResult =
  | {
      readonly acquired: true;
      /** created: there was no lease; taken: it was free or expired; renewed: it was ours already. */
      readonly how: 'created' | 'taken' | 'renewed';
      readonly lease: LeaseInspection;
      /** Monotonic time at which the successful write was sent (the start of our validity). */
      readonly sentAtMs: number;
    }
  | {
      readonly acquired: false;
      readonly because: 'held' | 'reserved' | 'foreign';
      readonly holder: string;
      readonly lease: LeaseInspection;
    };

export type RenewResult =
  | { readonly renewed: true; readonly lease: LeaseInspection; readonly sentAtMs: number }
  | {
      readonly renewed: false;
      /** lost: someone else holds it now; absent: it was deleted; foreign: it became a CLE lease. */
      readonly because: 'lost' | 'absent' | 'foreign';
      readonly holder: string | undefined;
      readonly lease: LeaseInspection;
    };

export type ReleaseResult =
  | { readonly released: true }
  | {
      readonly released: false;
      readonly because: 'not-holder' | 'absent';
      readonly holder: string | undefined;
    };

import { IntegrityError } from "./provenance";
import { writeOutcomeUnknown } from "./write-outcome";

/** The store's side of the kernel's StoreFaults port (src/kernel/ports.ts): its errors, classified. */
export const STORE_FAULTS = {
  integrityBreak: (error: unknown) => (error instanceof IntegrityError ? error : undefined),
  outcomeUnknown: writeOutcomeUnknown,
};

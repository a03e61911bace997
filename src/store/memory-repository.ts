/**
 * Moved to src/contracts/governed/store.ts. This re-export keeps src/audit/repair.ts and
 * src/audit/erasure.ts compiling until their Governed* classes are replaced by the generic
 * ContractStore pass (issue 11); delete it with them.
 */
export type { MemoryRecord } from "../contracts/governed/store";

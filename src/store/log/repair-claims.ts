import { createHash } from "node:crypto";
import type { Collection, Db } from "mongodb";
import { claimByNumber } from "../claims";

interface RepairClaim {
  _id: string;
  at: Date;
}

/** Which process completes an object left without its event (src/jobs/repair.ts): a unique `_id` decides. */
export class RepairClaims {
  private readonly claims: Collection<RepairClaim>;

  constructor(db: Db) {
    this.claims = db.collection<RepairClaim>("repair_claims");
  }

  /** Takes the object's claim; a claim older than `cutoff` (its process stopped) is taken over by the next number (claims.ts). */
  claim(key: string, at: Date, cutoff: number): Promise<boolean> {
    const base = createHash("sha256").update(key).digest("hex");
    return claimByNumber(this.claims, base, { at }, (held) => held.at.getTime() >= cutoff);
  }
}

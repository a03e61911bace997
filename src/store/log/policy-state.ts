import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "../database";
import { AUDIT_COLLECTIONS } from "./collections";

/** The bundle last recorded in force (MP-BREAK), shared by every process. */
export interface PolicyState {
  _id: "current";
  hash: string;
  version: string;
  since: string;
}

/** Where the policy watch (src/jobs/policy-watch.ts) records the bundle in force and the bundles refused. */
export class PolicyStateRecords {
  private readonly state: Collection<PolicyState>;
  private readonly refusals: Collection<{ _id: string; at: string }>;

  constructor(db: Db) {
    this.state = db.collection<PolicyState>(AUDIT_COLLECTIONS.policyState);
    this.refusals = db.collection<{ _id: string; at: string }>(AUDIT_COLLECTIONS.policyState);
  }

  current(): Promise<PolicyState | null> {
    return this.state.findOne({ _id: "current" });
  }

  /** false: another process recorded a bundle first. */
  async recordFirst(hash: string, version: string, since: string): Promise<boolean> {
    try {
      await this.state.insertOne({ _id: "current", hash, version, since });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** false: another process recorded this change (the bundle in force was no longer `previousHash`). */
  async replace(previousHash: string, hash: string, version: string, since: string): Promise<boolean> {
    const won = await this.state.updateOne({ _id: "current", hash: previousHash }, { $set: { hash, version, since } });
    return won.modifiedCount > 0;
  }

  /** Once per refused bundle across every process: false when it was recorded already. */
  async recordRefusal(bundleHash: string | null, at: string): Promise<boolean> {
    try {
      await this.refusals.insertOne({ _id: `refused:${bundleHash ?? "unreadable"}`, at });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }
}

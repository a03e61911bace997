/**
 * Re-judging stored memory when the policy tightens (issue 13 item 5, SPEC MP-BREAK,
 * C19-FORBID). Each contract offers its stored memories as `RejudgeTarget`s; the background
 * re-audit (src/jobs/reaudit.ts) walks them in `_id`-ordered batches, runs each one's
 * stored text through the kernel's detectors and the policy's REJUDGE operation of its
 * contract, and quarantines what the policy now refuses. The policy decides; a target only
 * reads, quarantines and releases.
 */

/** One stored object as the policy re-judges it: its text by declared field name, never sent anywhere else. */
export interface RejudgeCandidate {
  /** The object's `_id` in its collection: the walk's cursor. */
  docId: string;
  objectId: string;
  subjectId: string;
  /** Free text by the field name a write declares for it ("value", "text", "finalText" ...). */
  texts: Record<string, string>;
  /** What the quarantine event may carry besides the rule (metadata only: a space, a kind). */
  metadata?: Record<string, unknown>;
}

/** What a quarantined object keeps about its quarantine (no content). */
export interface QuarantineMark {
  at: string;
  /** The clauses the policy named, e.g. "C19-FORBID: health_in_value". */
  rules: string[];
  stop_reason: string;
  policy_hash: string;
  decision_id: string;
  /** The status the object had, restored by a release. */
  previous_status: string;
  logged_seq: number;
}

export interface Released {
  subjectId: string;
  metadata?: Record<string, unknown>;
}

export interface RejudgeTarget {
  /** The contract whose REJUDGE operation judges these objects (policies/memgate/contracts/<contract>/). */
  readonly contract: string;
  /** Unique per target: where re-audit progress is kept ("governed-memories", "ledger-items" ...). */
  readonly kind: string;
  /** Live objects of the tenant after `after` in `_id` order, at most `limit`: one round trip. */
  scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]>;
  /** Takes the object out of every read; false when it is no longer live (changed meanwhile). */
  quarantine(tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean>;
  /** Whether the target holds the object quarantined (and for which subject): what a release decides on. */
  quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null>;
  /** Restores a quarantined object's status; null when the target holds no such quarantined object. */
  release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null>;
}

/** How a target holds its objects in quarantine and gives them back (src/store/quarantined.ts StatusQuarantine). */
export interface QuarantineHolder {
  quarantine(docId: string, mark: QuarantineMark): Promise<boolean>;
  quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null>;
  release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null>;
}

/** A target whose quarantine is its holder's: only what it scans and judges is its own. */
export abstract class HeldRejudgeTarget implements RejudgeTarget {
  abstract readonly contract: string;
  abstract readonly kind: string;
  protected abstract readonly held: QuarantineHolder;

  abstract scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]>;

  quarantine(_tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean> {
    return this.held.quarantine(candidate.docId, mark);
  }

  quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    return this.held.quarantined(tenantId, objectId, subjectId);
  }

  release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null> {
    return this.held.release(tenantId, objectId, subjectId);
  }
}

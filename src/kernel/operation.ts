import type { Principal } from "../auth/principal";
import type { Clock } from "../clock";
import type { PolicyEngine } from "../policy/policy-engine";
import type { Decision } from "./decision";
import type { OperationDeclaration } from "./declaration";
import type { Writes } from "./write-set";

/** The subject of a tenant-wide operation (an audit query, an acknowledgement): recorded as no subject. */
export const TENANT_SCOPE = "*";

/** What every step of an operation may read: who asks, for which subject, when, under which policy. */
export interface OperationContext {
  principal: Principal;
  tenantId: string;
  /** Resolved by the kernel (or the operation's `subject`); TENANT_SCOPE for tenant-wide operations. */
  subjectId: string;
  /** Whether the token names the subject (or the operation is tenant-wide): a foreign subject gathers nothing. */
  subjectHeld: boolean;
  requestId: string;
  /** The injected clock's time at the start of the operation (SPEC D6). */
  now: Date;
  clock: Clock;
  policy: PolicyEngine;
  /** Free text of the request by path, as declared (already through the detectors). */
  texts: Readonly<Record<string, string>>;
}

/**
 * One operation as a contract declares it. The kernel owns the lifecycle: subject ->
 * fields -> gather -> detectors -> decide -> refuse | hold | allow -> events -> settle ->
 * metrics, failing closed on anything unexpected. An operation is its declaration (contract,
 * name, fields: src/kernel/declaration.ts) plus what it reads, what the policy needs to see,
 * and what it writes or answers.
 */
export interface Operation<Req, Gathered = undefined, Result = undefined> extends OperationDeclaration {
  /**
   * The subject the operation is about. Default: the request's `subjectId`, else the token's
   * first subject. Tenant-wide operations answer TENANT_SCOPE.
   */
  subject?(req: Req, ctx: Pick<OperationContext, "principal" | "tenantId" | "policy">): string | Promise<string>;
  /** Reads what the decision needs (target, settings, counts). Not called for a subject the token does not hold. */
  gather?(req: Req, ctx: OperationContext): Promise<Gathered>;
  /** The operation's part of the policy input (item, target, settings ...). No memory content (SPEC D7). */
  input?(req: Req, gathered: Gathered | undefined, ctx: OperationContext): Record<string, unknown>;
  /**
   * Metadata of the `refuse` event: lengths, known values, never content (SPEC D4). Gets the
   * decision (what a gate decided) and what was gathered (undefined for a foreign subject).
   */
  refusal?(req: Req, ctx: OperationContext, decision: Decision, gathered: Gathered | undefined): Record<string, unknown>;
  /**
   * On `allow`: a write goes through `writes` (each step with its undo, each event named);
   * a read returns its answer. Returning `writes.lost()` means a concurrent write won: the
   * kernel gathers and decides again.
   */
  allow?(req: Req, gathered: Gathered, ctx: OperationContext, writes: Writes, decision: Decision): Promise<Result>;
  /** On `hold`: what is kept for the person's confirmation (a proposal). */
  hold?(req: Req, gathered: Gathered, ctx: OperationContext, writes: Writes, decision: Decision): Promise<Result>;
}

/** Declares an operation with its types inferred. */
export function operation<Req, Gathered = undefined, Result = undefined>(op: Operation<Req, Gathered, Result>): Operation<Req, Gathered, Result> {
  return op;
}

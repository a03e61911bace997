import { EventEmitter } from "node:events";
import { watch, type FSWatcher } from "node:fs";
import path from "node:path";
import type { Logger } from "../logger";
import { loadBundle, type ContractData, type PolicyBundle } from "./bundle";
import { bundleTrust, type BundleTrust } from "./bundle-signature";
import { PolicyEvaluationError } from "./errors";
import { createEvaluator } from "./evaluator";

export const ENTRYPOINT = "memgate/main/decision";

/** What the policy answers for one operation. */
export interface PolicyDecision {
  /** What to do: allow, hold (for the person's confirmation) or refuse. */
  outcome?: string;
  stop_reason: string;
  explanations: string[];
  contract_version: string;
  /** The bundle that decided: the digest of its content, whoever signed it. */
  policy_hash: string;
  /** What the asked contract's rules answered beyond the stop reason (a gate's band, per-id answers, a reason code); null when none. */
  detail?: unknown;
  /** IF1-VALID: where in the request the winning violations point (JSON pointer and message), when they do. */
  errors?: unknown;
  /** The clauses of the winning violations (sorted, once each); absent from the default answer. */
  rules?: unknown;
}

export interface PolicyChange {
  previous: { hash: string; version: string } | undefined;
  current: { hash: string; version: string };
}

/**
 * Holds the compiled policy and evaluates it in-process. The bundle is loaded once and
 * replaced when its file changes; a bundle that fails to load, or whose signature does not
 * verify with a trusted key, leaves the previous one in force (`reloadFailed` says why). With none loaded, `decide` throws, and the caller answers INTERNAL_INCONSISTENCY.
 */
export class PolicyEngine extends EventEmitter<{ changed: [PolicyChange]; reloadFailed: [Error] }> {
  /** The bundle in force with its evaluator of the entrypoint: replaced together, never one without the other. */
  private bundle: (PolicyBundle & { evaluate: (input: unknown) => unknown }) | undefined;
  private watcher: FSWatcher | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;
  private reloading: Promise<boolean> = Promise.resolve(true);
  /** Why the last load failed; undefined once a load succeeds. */
  private failure: Error | undefined;

  constructor(
    private readonly bundlePath: string,
    private readonly logger: Logger,
    /** Whose signatures a bundle may carry (issue 15 §6); default: the development key of scripts/policy.sh. */
    private readonly trust: BundleTrust = bundleTrust(undefined),
  ) {
    super();
  }

  get loaded(): boolean {
    return this.bundle !== undefined;
  }

  /** Why the latest load was refused (read at start, before anyone listened to `reloadFailed`). */
  get lastFailure(): Error | undefined {
    return this.failure;
  }

  /** The policy version: the digest of the bundle's content (src/policy/bundle.ts). */
  get hash(): string | undefined {
    return this.bundle?.hash;
  }

  /** Who signed the bundle in force (RFC 7638 key thumbprint), reported beside the version. */
  get signerKeyId(): string | undefined {
    return this.bundle?.signerKeyId;
  }

  /** The contract tables of the loaded bundle; the one source of them (never duplicated in TS). */
  get contract(): ContractData {
    if (!this.bundle) throw new PolicyEvaluationError("no policy bundle is loaded");
    return this.bundle.data.memgate.contract;
  }

  /** Any table of the bundle's data under data.memgate (for example a contract's own tables). */
  data<T>(name: string): T {
    if (!this.bundle) throw new PolicyEvaluationError("no policy bundle is loaded");
    return this.bundle.data.memgate[name] as T;
  }

  decide(input: Record<string, unknown>): PolicyDecision {
    const bundle = this.bundle;
    if (!bundle) throw new PolicyEvaluationError("no policy bundle is loaded");
    let result: unknown;
    try {
      result = bundle.evaluate(input);
    } catch (error) {
      // opa-wasm throws plain strings and objects as well as Errors
      const detail = error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
      throw new PolicyEvaluationError(detail, { cause: error });
    }
    const decision = Array.isArray(result) ? (result[0] as { result?: unknown } | undefined)?.result : undefined;
    if (!isDecision(decision)) throw new PolicyEvaluationError("the entrypoint returned no decision (undefined)");
    return { ...decision, policy_hash: bundle.hash };
  }

  /** Loads the bundle file; true when it is now in force. Serialised, so reloads never interleave. */
  reload(): Promise<boolean> {
    this.reloading = this.reloading.then(() => this.load());
    return this.reloading;
  }

  /** Reloads when the bundle file is replaced (opa build, a deploy, a volume update). */
  watch(): void {
    if (this.watcher) return;
    const dir = path.dirname(this.bundlePath);
    const base = path.basename(this.bundlePath);
    try {
      this.watcher = watch(dir, { persistent: false }, (_event, file) => {
        if (file !== null && file !== base) return;
        clearTimeout(this.reloadTimer);
        // A build writes the file in several steps: wait until it has been quiet briefly.
        this.reloadTimer = setTimeout(() => {
          // eslint-disable-next-line @typescript-eslint/no-floating-promises -- a failed load is reported by `reloadFailed`; reload never rejects
          void this.reload();
        }, 150);
      });
    } catch (error) {
      this.logger.warn({ err: error, dir }, "cannot watch the policy bundle folder; reload needs a restart");
    }
  }

  close(): void {
    clearTimeout(this.reloadTimer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private async load(): Promise<boolean> {
    try {
      const loaded = await loadBundle(this.bundlePath, this.trust);
      const previous = this.bundle;
      this.failure = undefined;
      // The same content re-signed (a key rotation) is the same policy: only who vouched for it changes.
      if (previous?.hash === loaded.hash) {
        previous.signerKeyId = loaded.signerKeyId;
        return true;
      }
      const next = { ...loaded, evaluate: createEvaluator(loaded.policy, ENTRYPOINT) };
      this.bundle = next;
      const change: PolicyChange = {
        previous: previous && { hash: previous.hash, version: previous.data.memgate.contract.version },
        current: { hash: next.hash, version: next.data.memgate.contract.version },
      };
      this.logger.info({ policy: change }, "policy bundle loaded");
      this.emit("changed", change);
      return true;
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      this.failure = err;
      this.logger.error({ err, bundle: this.bundlePath, kept: this.bundle?.hash ?? null }, "policy bundle failed to load; the previous one stays in force");
      this.emit("reloadFailed", err);
      return false;
    }
  }
}

function isDecision(value: unknown): value is Omit<PolicyDecision, "policy_hash"> {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.stop_reason === "string" &&
    typeof v.contract_version === "string" &&
    Array.isArray(v.explanations) &&
    v.explanations.every((e) => typeof e === "string")
  );
}

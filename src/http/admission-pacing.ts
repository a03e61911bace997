import type { Principal } from "../auth/principal";

/** Milliseconds since some start, monotonic; injected so tests move time by hand. */
export type Ticker = () => number;

/** Runs `run` after `ms`; injected so tests fire timers by hand. */
export type Timer = (run: () => void, ms: number) => void;

export const realTimer: Timer = (run, ms) => {
  setTimeout(run, ms).unref?.();
};

/** Policy data `data.memgate.admission.refusals` (policies/memgate/admission/data.json). */
export interface RefusalPacing {
  /** 429 answers one principal gets a second, at most; the rest wait their turn. */
  per_principal_per_second: number;
  /** 429 answers all principals of one tenant get a second, at most. */
  per_tenant_per_second: number;
  /** The longest a refusal is held before it is answered anyway. */
  max_hold_ms: number;
  /** Refusals held at once in this process; past it, refusals are answered at once. */
  max_held: number;
}

export const DEFAULT_REFUSAL_PACING: RefusalPacing = { per_principal_per_second: 5, per_tenant_per_second: 20, max_hold_ms: 5_000, max_held: 512 };

export type Refusal = { admitted: false; retryAfterSeconds: number };

/**
 * Paced refusals (issue 22 §1, SG-LOAD): a caller that does not honour Retry-After and asks again
 * at once cannot turn refusals into load. Each principal's 429 answers, and its tenant's, leave
 * at a bounded pace; a refusal past the pace is held (a timer and an idle socket, nothing read
 * or parsed for it beyond what decided it) and answered at its turn. Measured on 2 cores: a
 * flooder with 100 connections was refused ~150 times a second, each refusal costing the gateway
 * about 1 ms of CPU (HTTP parse, routing, the JSON answer and its socket write) and the flooder's
 * own client as much again: most of what the victim lost. A caller that waits for its Retry-After
 * never meets the pace (its first refusal is answered at once).
 *
 * Held refusals are bounded: at most `max_held` in the process (past it, a refusal is answered at
 * once, as before) and each at most `max_hold_ms`. Counted per process, as every admission count.
 */
export class RefusalPacer {
  /** When the next refusal of a principal (`tenant\0id`) or a tenant may leave. */
  private readonly principalTurn = new Map<string, number>();
  private readonly tenantTurn = new Map<string, number>();
  private heldNow = 0;
  private sweptAt: number;
  /** Refusals answered later than decided, for the benchmark and tests. */
  held = 0;

  constructor(
    private readonly settings: () => RefusalPacing,
    private readonly now: Ticker,
    private readonly timer: Timer = realTimer,
  ) {
    this.sweptAt = now();
  }

  /** How many refusals wait for their turn right now. */
  get holding(): number {
    return this.heldNow;
  }

  /** The refusal, answered now when its principal and tenant are within their pace, else at their turn. */
  pace(principal: Pick<Principal, "tenant" | "id">, refusal: Refusal): Refusal | Promise<Refusal> {
    const { per_principal_per_second, per_tenant_per_second, max_hold_ms, max_held } = this.settings();
    if (per_principal_per_second <= 0 && per_tenant_per_second <= 0) return refusal;
    const now = this.now();
    this.sweep(now);
    const principalKey = `${principal.tenant}\u0000${principal.id}`;
    const turn = Math.max(now, this.principalTurn.get(principalKey) ?? now, this.tenantTurn.get(principal.tenant) ?? now);
    // More held than the process affords: answer now. A turn further than max_hold_ms: answer
    // then, and leave the turns where they are (so a caller with more connections than its pace
    // allows in max_hold_ms gets connections / max_hold_ms answers a second, no more).
    if (turn > now && this.heldNow >= max_held) return refusal;
    const wait = Math.min(turn - now, max_hold_ms);
    if (turn - now <= max_hold_ms) {
      if (per_principal_per_second > 0) this.principalTurn.set(principalKey, turn + 1000 / per_principal_per_second);
      if (per_tenant_per_second > 0) this.tenantTurn.set(principal.tenant, turn + 1000 / per_tenant_per_second);
    }
    if (wait <= 0) return refusal;
    this.heldNow += 1;
    this.held += 1;
    return new Promise<Refusal>((resolve) =>
      this.timer(() => {
        this.heldNow -= 1;
        resolve(refusal);
      }, wait),
    );
  }

  /** Turns long past are forgotten once a minute: the maps hold recent refusals only. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const turns of [this.principalTurn, this.tenantTurn]) for (const [key, at] of turns) if (at < now) turns.delete(key);
  }
}

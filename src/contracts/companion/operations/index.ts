import { addFact } from "./add-fact";
import { confirmProposal } from "./confirm-proposal";
import { consolidate } from "./consolidate";
import { runDecay } from "./decay";
import { envelope } from "./envelope";
import { erase } from "./erase";
import { forgetFact } from "./forget-fact";
import { setPrivacy } from "./set-privacy";
import { companionKit, type CompanionParts } from "./shared";

export { isoTime } from "./requests";
export type { AddFactRequest, ConfirmRequest, ConsolidateRequest, EnvelopeRequest, ForgetRequest, PrivacyRequest, TargetRequest } from "./requests";
export { CompanionError } from "./shared";
export type { CompanionData, CompanionGate, CompanionParts, FactResult } from "./shared";

/**
 * Companion memory (seed 002) and governed consolidation (seed 004 §3, §5), as operations
 * the kernel runs, one file each. Each says what it reads, what the policy sees and what it
 * writes (every step with its undo, every event named); the policy decides.
 */
export function companionOperations(parts: CompanionParts) {
  const kit = companionKit(parts);
  return {
    addFact: addFact(kit),
    confirmProposal: confirmProposal(kit),
    forgetFact: forgetFact(kit),
    envelope: envelope(kit),
    setPrivacy: setPrivacy(kit),
    erase: erase(kit),
    runDecay: runDecay(kit),
    consolidate: consolidate(kit),
  };
}

export type CompanionOperations = ReturnType<typeof companionOperations>;

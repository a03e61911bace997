import { registerEnumType } from "type-graphql";
import { STOP_REASONS, type StopReason as StopReasonCode } from "../../kernel/outcome";

/** The GraphQL enum of SPEC D3's codes; a test checks it against the policy's priority list. */
export const StopReason = Object.fromEntries(STOP_REASONS.map((code) => [code, code])) as { [K in StopReasonCode]: K };

registerEnumType(StopReason, {
  name: "StopReason",
  description: "The one stop reason every operation answers (contract 19.1.0: seed 000's thirteen codes plus SUCCESS_READ, SUCCESS_LISTED, NOT_FOUND).",
});

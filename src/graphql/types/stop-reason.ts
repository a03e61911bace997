import { registerEnumType } from "type-graphql";
import { STOP_REASONS } from "../../kernel/outcome";

/** The GraphQL enum of SPEC D3's codes: the policy's priority list (policies/memgate/contract/data.json), in its order. */
export const StopReason = Object.fromEntries(STOP_REASONS.map((code) => [code, code])) as Record<string, string>;

registerEnumType(StopReason, {
  name: "StopReason",
  description: "The one stop reason every operation answers (contract 19.1.0: seed 000's thirteen codes plus SUCCESS_READ, SUCCESS_LISTED, NOT_FOUND).",
});

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { DecisionStamps } from "../kernel/outcome";

/** What a tool hands back: the decision, what it produced, and whether the call took effect. */
export interface ToolAnswer {
  stamps: DecisionStamps;
  payload: Record<string, unknown>;
  /** The policy refused: nothing was done. A held proposal is not refused (it waits for the person). */
  refused: boolean;
  /** One line for a model to read first. */
  summary: string;
}

/**
 * A refusal is a tool result with `isError: true`, never a JSON-RPC error: the MCP spec
 * (server/tools, "Error Handling") puts business-logic failures in the result so the model
 * sees them and can correct itself, and keeps protocol errors for unknown tools and malformed
 * requests. `isError` tells a client that the call did not take effect; the structured
 * content (the same output schema as a success) says why, with the stop reason.
 * The JSON is repeated as text for clients that do not read structured content (spec: SHOULD).
 */
export function toToolResult(answer: ToolAnswer): CallToolResult {
  const structured = { ...answer.stamps, ...answer.payload };
  return {
    content: [
      { type: "text", text: answer.summary },
      { type: "text", text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
    isError: answer.refused,
  };
}

export function summaryOf(stamps: DecisionStamps, refused: boolean, done: string): string {
  if (!refused) return `${stamps.stop_reason}: ${done}`;
  const why = stamps.explanations.length > 0 ? ` (${stamps.explanations.join("; ")})` : "";
  return `${stamps.stop_reason}: refused by policy, nothing was changed${why}`;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), mapKeys(v, rename)]));
}

/** GraphQL views (camelCase) as MCP results (snake_case); JSON values only. */
export const snakeKeys = (value: unknown): unknown => mapKeys(value, snake);
/** MCP arguments (snake_case) as the camelCase requests of the ledger and companion contracts. */
export const camelKeys = (value: unknown): unknown => mapKeys(value, camel);

import doorsData from "../../policies/memgate/doors/data.json";
import type { StopReason } from "../kernel/outcome";

const HTTP_STATUS: Readonly<Record<string, number>> = Object.freeze({ ...doorsData.http_status });

/**
 * The HTTP status of a stop reason, for a door that answers a refusal with one (the audit
 * export): the policy's table (policies/memgate/doors/data.json "http_status", one status per
 * code of the priority list, doors_test.rego), not a mapping written here. A code the table
 * does not have answers 500: the door fails closed rather than guess.
 */
export function httpStatusOf(stopReason: StopReason): number {
  return HTTP_STATUS[stopReason] ?? 500;
}

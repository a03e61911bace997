import pino, { type Logger } from "pino";

export type { Logger };

/**
 * JSON logs. Request and memory content is never logged (SPEC D4): log ids, codes and
 * lengths. The redaction list is a second line of defence for fields that might slip in.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "memgate" },
    redact: { paths: ["value", "key", "text", "*.value", "*.key", "*.text", "authorization", "*.authorization"], censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

import type { AnyBulkWriteOperation, BulkWriteOptions, Collection, Document } from "mongodb";

/**
 * The most update statements memgate sends in one command. FerretDB 1.24 on SQLite holds each
 * single-document update statement's query open until the command ends (a `defer` inside its
 * statement loop) and its SQLite pool has 100 connections: an `update` command of 100 or more
 * statements waits for a connection forever, and every later request with it. Upstream, with
 * or without memgate's patches. MongoDB has no such limit; chunks of 50 cost it nothing much.
 */
export const STATEMENTS_PER_COMMAND = 50;

/** `ops` in slices of at most `STATEMENTS_PER_COMMAND`. */
export function commandChunks<T>(ops: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < ops.length; i += STATEMENTS_PER_COMMAND) chunks.push(ops.slice(i, i + STATEMENTS_PER_COMMAND));
  return chunks;
}

/** One unordered bulk write per chunk, in turn; the first chunk that fails stops it (later chunks are not sent). */
export async function bulkWriteChunked<T extends Document>(
  collection: Collection<T>,
  ops: readonly AnyBulkWriteOperation<T>[],
  options: BulkWriteOptions = { ordered: false },
): Promise<void> {
  for (const chunk of commandChunks(ops)) await collection.bulkWrite(chunk, options);
}

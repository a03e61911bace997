import { MongoBulkWriteError, MongoNetworkError } from "mongodb";

/**
 * Whether a write failed with its outcome unknown: the connection broke after the command was
 * sent (the database process died, the network failed), so the server may have applied it
 * before the answer was lost. MongoDB documents this case for every write without a retryable
 * session; the driver reports it as a network error, or, for a bulk write, as a
 * MongoBulkWriteError whose server response is that network error.
 */
export function writeOutcomeUnknown(error: unknown): boolean {
  return error instanceof MongoNetworkError || (error instanceof MongoBulkWriteError && error.errorResponse instanceof MongoNetworkError);
}

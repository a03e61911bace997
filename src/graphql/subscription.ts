import { GraphQLError } from "graphql";
import { SubscriptionLimitError } from "../store/log/event-source";
import { ErrorCode } from "./errors";

/** A kernel outcome whose value, when allowed, opens a stream that ends when the signal aborts. */
interface StreamOutcome<T> {
  value?: ((signal: AbortSignal) => AsyncIterable<T>) | null;
  stopReason: string;
  decisionId: string;
  explanations: string[];
}

/**
 * The stream of an allowed subscription operation. A subscription has no result to carry a
 * refusal, so a refusal ends it with the stop reason in the error; a stream over its limit is
 * refused the same way. Unsubscribing aborts the source at once, even while it waits.
 */
export function subscriptionStream<T>(name: string, outcome: StreamOutcome<T>): AsyncIterableIterator<T> {
  if (!outcome.value) {
    throw new GraphQLError(`${name} refused: ${outcome.stopReason}`, {
      extensions: { code: ErrorCode.FORBIDDEN, stopReason: outcome.stopReason, decisionId: outcome.decisionId, explanations: outcome.explanations },
    });
  }
  const controller = new AbortController();
  try {
    return abortable(outcome.value(controller.signal), controller);
  } catch (error) {
    controller.abort();
    if (!(error instanceof SubscriptionLimitError)) throw error;
    throw new GraphQLError(error.message, { extensions: { code: ErrorCode.FORBIDDEN, reason: error.code, scope: error.scope, limit: error.limit } });
  }
}

function abortable<T>(iterable: AsyncIterable<T>, controller: AbortController): AsyncIterableIterator<T> {
  const inner = iterable[Symbol.asyncIterator]();
  return {
    next: () => inner.next(),
    return: async () => {
      controller.abort();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

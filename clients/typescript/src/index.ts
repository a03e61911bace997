/** memgate's typed TypeScript client: generated documents, typed results, Apollo Client set-up. */
export * from "./generated/graphql";
export * from "./type-policies";
export * from "./results";
export * from "./errors";
export * from "./client";
export * from "./request";

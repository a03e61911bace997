import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { MaxTokensParserWLexer } from "@escape.tech/graphql-armor-max-tokens";
import { defaultFieldResolver, GraphQLError, type DocumentNode, type GraphQLSchema, type ValidationContext, type ValidationRule } from "graphql";
import type { GraphQLArmorCallbackConfiguration } from "@escape.tech/graphql-armor-types";
import type { DocumentLimits } from "../config";
import { ClientGoneError, DocumentLimitError, type DocumentLimit } from "../graphql/errors";

/**
 * Bounds on one GraphQL document, applied alike by HTTP (Apollo) and graphql-ws: graphql-armor's
 * rules, configured from DocumentLimits. Tokens are counted while parsing (the parse stops at the
 * first token over the bound, so a 256 KiB document of aliases costs microseconds); depth,
 * aliases, directives and cost are validation rules, so an over-limit document never executes.
 */

/** armor's messages start with "Syntax Error: " whatever the bound; ours name the bound instead. */
function refuseAs(limit: DocumentLimit): GraphQLArmorCallbackConfiguration {
  return {
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        const refusal = new DocumentLimitError(limit, error.message.replace(/^Syntax Error: /, ""));
        // The token count runs inside the parser, which has no validation context: throwing stops the parse.
        if (!context) throw refusal;
        context.reportError(refusal);
      },
    ],
  };
}

export function documentLimitRules(limits: DocumentLimits): ValidationRule[] {
  return [
    // Depth of fields as executed: a fragment spread or inline fragment is not a level (the typed
    // client's fragments would otherwise count twice), while nesting of fields stays bounded.
    maxDepthRule({ n: limits.maxDepth, flattenFragments: true, ...refuseAs("depth") }),
    maxAliasesRule({ n: limits.maxAliases, ...refuseAs("aliases") }),
    maxDirectivesRule({ n: limits.maxDirectives, ...refuseAs("directives") }),
    costLimitRule({ maxCost: limits.maxCost, ...refuseAs("cost") }),
  ] as ValidationRule[];
}

/** Parses a document, throwing DocumentLimitError at the first token over the bound (and GraphQLError on bad syntax). */
export function parseBounded(source: string, limits: DocumentLimits): DocumentNode {
  return new MaxTokensParserWLexer(source, { n: limits.maxTokens, ...refuseAs("tokens") }).parseDocument();
}

/** Documents a checker remembers as within the token bound, and the longest it remembers. */
const ACCEPTED_DOCUMENTS = 512;
const ACCEPTED_MAX_LENGTH = 8 * 1024;

/**
 * A check that throws DocumentLimitError when a document has more tokens than allowed (other
 * syntax errors are left to the parser that follows). Clients send the same few documents
 * with new variables, so documents found within the bound are remembered by their exact text
 * (a few hundred of them, each at most a few KiB, the oldest forgotten first) and not tokenized again.
 */
export function tokenLimitCheck(limits: DocumentLimits): (source: string) => void {
  const accepted = new Set<string>();
  return (source) => {
    if (accepted.has(source)) return;
    try {
      parseBounded(source, limits);
    } catch (error) {
      if (error instanceof DocumentLimitError) throw error;
      return;
    }
    if (source.length > ACCEPTED_MAX_LENGTH) return;
    if (accepted.size >= ACCEPTED_DOCUMENTS) accepted.delete(accepted.values().next().value as string);
    accepted.add(source);
  };
}

/** True when the JSON value nests objects and arrays deeper than maxDepth (iterative: a 50,000-deep value cannot overflow it). */
export function jsonDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** What a resolver needs to know about the caller's connection. */
export interface ClientSignal {
  signal?: AbortSignal;
}

const guarded = new WeakSet<GraphQLSchema>();

/**
 * Makes every root field refuse to start once its caller has gone (closed socket, dropped HTTP
 * request): mutations run one after another, so the rest of a document stops there. Wraps the
 * schema's root resolvers in place, once.
 */
export function stopWhenClientGoes(schema: GraphQLSchema): void {
  if (guarded.has(schema)) return;
  guarded.add(schema);
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context: ClientSignal | undefined, info) => {
        if (context?.signal?.aborted) throw new ClientGoneError();
        return resolve(source, args, context, info);
      };
      if (field.subscribe) {
        const subscribe = field.subscribe;
        field.subscribe = (source, args, context: ClientSignal | undefined, info) => {
          if (context?.signal?.aborted) throw new ClientGoneError();
          return subscribe(source, args, context, info);
        };
      }
    }
  }
}

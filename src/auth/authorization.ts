import { AuthenticationError } from "./token-verifier";

/**
 * The one Authorization value of an HTTP request, from its raw headers: Node keeps only the
 * first of duplicated Authorization headers, so a second (forged or garbage) one would pass
 * unseen. Header names are case-insensitive (RFC 9110).
 */
export function authorizationFromRawHeaders(rawHeaders: readonly string[]): string | undefined {
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === "authorization") values.push(rawHeaders[i + 1]);
  }
  if (values.length > 1) throw new AuthenticationError("more than one Authorization header");
  return values[0];
}

/** The Authorization value of a graphql-ws connection_init payload, its name matched as on HTTP. */
export function authorizationFromConnectionParams(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const keys = Object.keys(params ?? {}).filter((key) => key.toLowerCase() === "authorization");
  if (keys.length > 1) throw new AuthenticationError("more than one Authorization parameter");
  if (keys.length === 0) return undefined;
  const value = params![keys[0]];
  if (typeof value !== "string") throw new AuthenticationError("the Authorization parameter must be a string");
  return value;
}

import { loadConfig } from "../../src/config";
import { AuthenticationError, DEFAULT_CLAIMS, claimAt, principalFromClaims } from "../../src/auth/token-verifier";

const base = { sub: "alice", iat: 1, exp: 2 };
const mapping = (env: Record<string, string>) => loadConfig({ ...env }).jwt.claims;

/** Issue 25: where tenant, subjects and roles are in a provider's token is configuration (SPEC D5: still claims only). */
describe("claim mapping for identity providers", () => {
  it("SPEC-D5: memgate's own claim names by default, nothing implied", () => {
    expect(principalFromClaims({ ...base, tenant: "acme", subjects: ["alice"], roles: ["user"] }, DEFAULT_CLAIMS)).toMatchObject({
      tenant: "acme",
      subjects: ["alice"],
      roles: ["user"],
    });
    expect(() => principalFromClaims({ ...base, tenant: "acme", subjects: ["alice"] }, DEFAULT_CLAIMS)).toThrow(AuthenticationError);
    expect(() => principalFromClaims({ ...base, roles: ["user"] }, DEFAULT_CLAIMS)).toThrow('claim "tenant" is missing');
    expect(principalFromClaims({ ...base, tenant: "acme", roles: ["user"] }, DEFAULT_CLAIMS).subjects).toEqual([]);
  });

  it("Keycloak: roles at a dotted path, unknown realm roles dropped, subjects from sub", () => {
    const claims = mapping({ MEMGATE_CLAIM_ROLES: "realm_access.roles", MEMGATE_IGNORE_UNKNOWN_ROLES: "true", MEMGATE_SUBJECTS_FROM_SUB: "true" });
    const principal = principalFromClaims({ ...base, tenant: "acme", realm_access: { roles: ["offline_access", "user"] } }, claims);
    expect(principal).toMatchObject({ tenant: "acme", subjects: ["alice"], roles: ["user"] });
  });

  it("Auth0: namespaced claim names (with dots) are read as they are", () => {
    const claims = mapping({ MEMGATE_CLAIM_TENANT: "https://memgate.example.com/tenant", MEMGATE_CLAIM_ROLES: "https://memgate.example.com/roles" });
    const principal = principalFromClaims(
      { ...base, "https://memgate.example.com/tenant": "acme", "https://memgate.example.com/roles": ["agent"], subjects: ["bob"] },
      claims,
    );
    expect(principal).toMatchObject({ tenant: "acme", subjects: ["bob"], roles: ["agent"] });
  });

  it("Google: no custom claims; a default tenant and role, subjects from sub", () => {
    const claims = mapping({ MEMGATE_DEFAULT_TENANT: "example.com", MEMGATE_DEFAULT_ROLES: "user", MEMGATE_SUBJECTS_FROM_SUB: "true" });
    expect(principalFromClaims({ ...base, email: "alice@example.com" }, claims)).toMatchObject({ tenant: "example.com", subjects: ["alice"], roles: ["user"] });
  });

  it("a claim present but of the wrong shape is refused, default or not; unknown roles are refused unless told to drop them", () => {
    const claims = mapping({ MEMGATE_DEFAULT_TENANT: "acme", MEMGATE_DEFAULT_ROLES: "user" });
    expect(() => principalFromClaims({ ...base, tenant: 42 }, claims)).toThrow(AuthenticationError);
    expect(() => principalFromClaims({ ...base, roles: ["user", "Everyone"] }, claims)).toThrow(AuthenticationError);
    expect(() =>
      principalFromClaims({ ...base, roles: ["Everyone"] }, mapping({ MEMGATE_DEFAULT_TENANT: "acme", MEMGATE_IGNORE_UNKNOWN_ROLES: "true" })),
    ).toThrow(AuthenticationError);
  });

  it("claimAt: a name as is first, then a dotted path, never through arrays or inherited keys", () => {
    expect(claimAt({ "a.b": 1, a: { b: 2 } }, "a.b")).toBe(1);
    expect(claimAt({ a: { b: 2 } }, "a.b")).toBe(2);
    expect(claimAt({ a: [{ b: 2 }] }, "a.0.b")).toBeUndefined();
    expect(claimAt({}, "constructor")).toBeUndefined();
  });
});

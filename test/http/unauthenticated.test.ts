import { generateKeyPairSync } from "node:crypto";
import { SignJWT } from "jose";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { TEST_AUDIENCE, TEST_ISSUER } from "../support/tokens";

/** A token as `npm run token` mints it against another data folder: another key, with its kid. */
async function foreignToken(): Promise<string> {
  const other = generateKeyPairSync("ed25519");
  return new SignJWT({ tenant: "acme", subjects: ["repo:acme/web"], roles: ["agent"] })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: "other-folder-key" })
    .setSubject("caller-1")
    .setIssuer(TEST_ISSUER)
    .setAudience(TEST_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(other.privateKey);
}

describe("a token signed by a key the gateway does not trust says so on 401 (issue 24)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.stop());

  it("GraphQL over HTTP and POST /v1/memory name the token's kid and what to check", async () => {
    const token = await foreignToken();
    const graphql = await gw.gql(token, "{ contract { version } }");
    expect(graphql.status).toBe(401);
    const message = graphql.errors![0].message;
    expect(message).toMatch(/ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
    expect(message).toMatch(/key id \(kid\) "other-folder-key" is not in its key set/);
    expect(message).toMatch(/MEMGATE_DATA_DIR/);

    const rest = await fetch(`${gw.url}/v1/memory`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ op: "read", repo_id: "acme/web", mode: "targeted", query: "x", limit: 1 }),
    });
    expect(rest.status).toBe(401);
    const body = (await rest.json()) as { errors: { message: string }[] };
    expect(body.errors[0].message).toMatch(/"other-folder-key" is not in its key set.*JWT_JWKS_URL/);
  });

  it("other reasons are answered as before", async () => {
    const graphql = await gw.gql("not-a-token", "{ contract { version } }");
    expect(graphql.status).toBe(401);
    expect(graphql.errors![0].message).not.toMatch(/key set/);
  });
});

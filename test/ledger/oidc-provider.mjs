// A real OpenID provider for the ledger page's sign-in test (test/ledger/ledger-page-oidc.test.ts):
// node_modules/oidc-provider (panva's certified implementation) with its development login form,
// on loopback. Argument: the port to listen on, and the ledger page's redirect URI. Prints one
// line of JSON ({"issuer": ...}) once it listens. Its people: any login, in tenant "acme", with the
// roles claim an IdP would carry ("user" among groups memgate does not know).
import { createServer } from "node:http";
import Provider from "oidc-provider";

const [port, redirect] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
const CLIENT_ID = "memgate-ledger";
const SCOPE = "openid profile memgate offline_access";

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT_ID,
      token_endpoint_auth_method: "none",
      redirect_uris: [redirect],
      post_logout_redirect_uris: [redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    },
  ],
  scopes: ["openid", "offline_access", "profile", "memgate"],
  claims: { openid: ["sub"], profile: ["name"], memgate: ["org", "memgate_roles"] },
  // The scope's claims in the ID token itself (the page sends the ID token to the gateway).
  conformIdTokenClaims: false,
  findAccount: async (_ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, name: `Person ${id}`, org: "acme", memgate_roles: ["Everyone", "user"] }),
  }),
  // A first-party client: no consent screen.
  loadExistingGrant: async (ctx) => {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope(SCOPE);
    await grant.save();
    return grant;
  },
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
  pkce: { required: () => true },
  ttl: { IdToken: 3600, AccessToken: 3600, RefreshToken: 86400, Session: 86400, Grant: 86400, Interaction: 600 },
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  cookies: { keys: ["memgate-test-only"] },
});
provider.on("server_error", (_ctx, error) => console.error("oidc-provider:", error));

createServer(provider.callback()).listen(Number(port), "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ issuer, clientId: CLIENT_ID, scope: SCOPE })}\n`);
});

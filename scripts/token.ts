/**
 * Prints a signed development token for the embedded gateway:
 *   npm run token -- --tenant acme --subject alice --role agent [--subject bob] [--role admin]
 *                    [--sub <caller id>] [--agent-type coder] [--job-id j1 --job-kind extraction] [--ttl 12h]
 * Signed with the development key the gateway uses when no JWT key is configured.
 */
import { createPrivateKey } from "node:crypto";
import { parseArgs } from "node:util";
import { SignJWT } from "jose";
import { ensureDevKeyPair } from "../src/auth/dev-keys";
import { ROLES } from "../src/auth/principal";
import { loadConfig } from "../src/config";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenant: { type: "string" },
      subject: { type: "string", multiple: true, default: [] },
      role: { type: "string", multiple: true, default: [] },
      sub: { type: "string" },
      "agent-type": { type: "string" },
      "job-id": { type: "string" },
      "job-kind": { type: "string" },
      ttl: { type: "string", default: "12h" },
    },
  });
  const roles = values.role ?? [];
  if (!values.tenant || roles.length === 0) {
    throw new Error("usage: npm run token -- --tenant T --subject S --role R (--subject and --role may repeat)");
  }
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length > 0) throw new Error(`unknown role(s) ${unknown.join(", ")}; roles are ${ROLES.join(", ")}`);
  const config = loadConfig();
  const keys = await ensureDevKeyPair(config.dataDir, "jwt");
  const claims: Record<string, unknown> = { tenant: values.tenant, subjects: values.subject, roles };
  if (values["agent-type"]) claims.agent_type = values["agent-type"];
  if (values["job-id"]) claims.job = { id: values["job-id"], kind: values["job-kind"] ?? "job" };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
    .setSubject(values.sub ?? `${roles[0]}:${values.subject?.[0] ?? values.tenant}`)
    .setIssuer(config.jwt.issuer)
    .setAudience(config.jwt.audience)
    .setIssuedAt()
    .setExpirationTime(values.ttl ?? "12h")
    .sign(createPrivateKey(keys.privateKeyPem));
  process.stdout.write(`${token}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`token: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

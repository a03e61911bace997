/**
 * Prints a signed development token for the embedded gateway (run through scripts/token.mjs,
 * which compiles only when a source changed). `--help` lists the options.
 * Signed with the development key the gateway uses when no JWT key is configured.
 */
import { createPrivateKey } from "node:crypto";
import { parseArgs } from "node:util";
import { SignJWT } from "jose";
import { ensureDevKeyPair } from "../src/auth/dev-keys";
import { ROLES } from "../src/auth/principal";
import { loadConfig } from "../src/config";
import { developmentJwk } from "../src/http/development-jwks";

const USAGE = `usage: npm run -s token -- --tenant T --subject S --role R [options]

Prints a development token signed with the key in <data>/keys/ (the gateway's when it runs on
development keys, i.e. without JWT_PUBLIC_KEY / JWT_JWKS_URL).

  --tenant T          the tenant (required)
  --subject S         a subject the token may act for; repeatable (repo:<owner>/<name> for agent memory)
  --role R            ${ROLES.join(" | ")}; repeatable (required)
  --sub ID            the caller's id (default <role>:<first subject>)
  --agent-type TYPE   agent_type claim (seed 001 agents)
  --job-id ID         job claim, with --job-kind KIND (default "job")
  --ttl DURATION      lifetime: 90s, 30m, 12h, 1d (default 12h; at most MEMGATE_TOKEN_MAX_LIFETIME_S, 24 h)
  --url URL           the running gateway to compare keys with (default http://localhost:<PORT>)
  --help              this text

Environment: MEMGATE_DATA_DIR (default ./data) selects the key, as it does for the gateway.`;

/** Thrown for a wrong invocation: printed with the usage, exit 2. */
class UsageError extends Error {}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

function parseTtlSeconds(ttl: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(ttl.trim());
  if (!match) throw new UsageError(`--ttl ${ttl}: write a number with s, m, h or d (e.g. 12h)`);
  return Number(match[1]) * UNIT_SECONDS[match[2] || "s"];
}

/** The key id the gateway at `url` publishes, or undefined when no gateway answers there (or it uses a configured key). */
async function runningGatewayKeyId(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(new URL("/.well-known/jwks.json", url), { signal: AbortSignal.timeout(500) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { keys?: { kid?: string }[] };
    return body.keys?.[0]?.kid;
  } catch {
    return undefined;
  }
}

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
      url: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const roles = values.role ?? [];
  if (!values.tenant || roles.length === 0) throw new UsageError("--tenant and --role are required");
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length > 0) throw new UsageError(`unknown role(s) ${unknown.join(", ")}; roles are ${ROLES.join(", ")}`);
  const config = loadConfig();
  const ttlSeconds = parseTtlSeconds(values.ttl ?? "12h");
  const maxSeconds = config.door.session.maxTokenLifetimeS;
  if (ttlSeconds > maxSeconds) {
    throw new UsageError(
      `--ttl ${values.ttl} is longer than the gateway accepts (${maxSeconds} s, MEMGATE_TOKEN_MAX_LIFETIME_S); the gateway would refuse the token`,
    );
  }
  if (ttlSeconds === 0) throw new UsageError("--ttl must be longer than 0");

  const keys = await ensureDevKeyPair(config.dataDir, "jwt");
  const { kid } = await developmentJwk(keys.publicKeyPem);
  const gatewayKid = await runningGatewayKeyId(values.url ?? `http://localhost:${config.port}`);
  if (gatewayKid && gatewayKid !== kid) {
    process.stderr.write(
      `token: warning: the gateway at ${values.url ?? `http://localhost:${config.port}`} verifies with another development key ` +
        `(kid ${gatewayKid}) than ${keys.dir} (kid ${kid}); it will refuse this token. ` +
        `Run with the gateway's MEMGATE_DATA_DIR.\n`,
    );
  }

  const claims: Record<string, unknown> = { tenant: values.tenant, subjects: values.subject, roles };
  if (values["agent-type"]) claims.agent_type = values["agent-type"];
  if (values["job-id"]) claims.job = { id: values["job-id"], kind: values["job-kind"] ?? "job" };
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid })
    .setSubject(values.sub ?? `${roles[0]}:${values.subject?.[0] ?? values.tenant}`)
    .setIssuer(config.jwt.issuer)
    .setAudience(config.jwt.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(createPrivateKey(keys.privateKeyPem));
  process.stdout.write(`${token}\n`);
}

main().catch((error: unknown) => {
  const usage = error instanceof UsageError || (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"));
  process.stderr.write(`token: ${error instanceof Error ? error.message : String(error)}\n${usage ? `\n${USAGE}\n` : ""}`);
  process.exit(usage ? 2 : 1);
});

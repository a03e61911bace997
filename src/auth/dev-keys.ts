import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export interface DevKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
  dir: string;
}

/** NODE_ENV=production never creates nor reads a development key: a key beside the data is no secret. */
export class DevelopmentKeyRefusedError extends Error {
  readonly code = "CONFIG_INVALID" as const;
  constructor(name: string) {
    super(`NODE_ENV=production refuses the development key "${name}": configure the real one`);
    this.name = new.target.name;
  }
}

/**
 * A development Ed25519 key pair under <dataDir>/keys/<name>, created on first use.
 * Used for local tokens (`npm run token`) and, later, checkpoint signing, only when no
 * key is configured. The private key file is readable by its owner only.
 */
export async function ensureDevKeyPair(dataDir: string, name: string): Promise<DevKeyPair> {
  // Checked here, not only in config, so that no caller (tokens, checkpoints, signing) can fall back to one in production.
  if (process.env.NODE_ENV === "production") throw new DevelopmentKeyRefusedError(name);
  const dir = path.join(dataDir, "keys");
  const privatePath = path.join(dir, `${name}-private.pem`);
  const publicPath = path.join(dir, `${name}-public.pem`);
  if (!existsSync(privatePath) || !existsSync(publicPath)) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    await writeFile(privatePath, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    await writeFile(publicPath, publicKey.export({ type: "spki", format: "pem" }), { mode: 0o644 });
  }
  return {
    privateKeyPem: await readFile(privatePath, "utf8"),
    publicKeyPem: await readFile(publicPath, "utf8"),
    dir,
  };
}

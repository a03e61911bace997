import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadPolicy, type LoadedPolicy } from "@open-policy-agent/opa-wasm";
import { Parser, type ReadEntry } from "tar";
import { bundleContentDigest, bundleTrust, verifyBundleSignature, type BundleTrust } from "./bundle-signature";
import { PolicyBundleError } from "./errors";

/** The part of the bundle's data that memgate reads: contract tables (policies/memgate/contract). */
export interface ContractData {
  version: string;
  priority: string[];
  categories: Record<string, { description: string; value_max: number; ttl_classes: string[]; source_kinds: string[] }>;
  ttl_classes: Record<string, { seconds: number; description: string }>;
  source_kinds: string[];
  bounds: Record<string, number>;
  /** Roles that may act for any subject of their tenant (an admin's override, seed 002). */
  any_subject_roles?: string[];
  [key: string]: unknown;
}

export interface PolicyBundle {
  /**
   * The policy version stamped on every decision: sha256 of the bundle's content (every file the
   * signed manifest covers, not `.signatures.json`), so the same sources give the same version
   * whoever signed them (issue 22 §6).
   */
  hash: string;
  /** RFC 7638 thumbprint of the key the bundle's signature verified with, reported beside the version. */
  signerKeyId: string;
  policy: LoadedPolicy;
  data: { memgate: { contract: ContractData; [key: string]: unknown } };
}

/**
 * Reads a signed `opa build -b -t wasm` bundle (tar.gz with /policy.wasm, /data.json and
 * /.signatures.json); the signature is verified against `trust` before anything is loaded.
 */
export async function loadBundle(path: string, trust: BundleTrust = bundleTrust(undefined)): Promise<PolicyBundle> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new PolicyBundleError(`cannot read ${path}`, { cause: error });
  }
  // A bundle refused before its content is read is named by its file's sha256.
  const hash = createHash("sha256").update(bytes).digest("hex");
  try {
    return await readBundle(path, bytes, trust);
  } catch (error) {
    if (error instanceof PolicyBundleError) error.bundleHash = hash;
    throw error;
  }
}

async function readBundle(path: string, bytes: Buffer, trust: BundleTrust): Promise<PolicyBundle> {
  const files = new Map<string, Buffer>();
  try {
    const parser = new Parser({
      onReadEntry: (entry: ReadEntry) => {
        if (entry.type !== "File") return void entry.resume();
        const chunks: Buffer[] = [];
        entry.on("data", (chunk: Buffer) => chunks.push(chunk));
        entry.on("end", () => files.set(entry.path.replace(/^\/+/, ""), Buffer.concat(chunks)));
      },
    });
    await pipeline(Readable.from([bytes]), parser);
  } catch (error) {
    throw new PolicyBundleError(`${path} is not a readable tar.gz bundle`, { cause: error });
  }
  const { keyId: signerKeyId } = await verifyBundleSignature(files, trust);
  const hash = bundleContentDigest(files);
  const wasm = files.get("policy.wasm");
  const dataJson = files.get("data.json");
  if (!wasm || !dataJson) throw new PolicyBundleError(`${path} has no policy.wasm or no data.json`);
  let data: PolicyBundle["data"];
  let policy: LoadedPolicy;
  try {
    data = JSON.parse(dataJson.toString("utf8")) as PolicyBundle["data"];
    if (typeof data?.memgate?.contract?.version !== "string") throw new Error("data.memgate.contract.version is missing");
    policy = await loadPolicy(wasm);
    policy.setData(data);
  } catch (error) {
    throw new PolicyBundleError(`${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { hash, signerKeyId, policy, data };
}

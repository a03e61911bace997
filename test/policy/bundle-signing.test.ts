import { execFileSync } from "node:child_process";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { create as createTar, extract as extractTar } from "tar";
import { loadBundle } from "../../src/policy/bundle";
import { bundleTrust, DEV_POLICY_PUBLIC_KEY, keyIdOf } from "../../src/policy/bundle-signature";
import { PolicyBundleSignatureError } from "../../src/policy/errors";
import { PolicyEngine } from "../../src/policy/policy-engine";
import { POLICY_BUNDLE } from "../support/gateway";
import { buildSignedBundle, buildVariant, ROOT } from "./build-bundle";

const logger = pino({ level: "silent" });
const sha256 = (file: string) => execFileSync("sha256sum", [file]).toString().slice(0, 64);

/** A second Ed25519 key as a PEM file pair: another author, or the next key of a rotation. */
function keyPair(dir: string, name: string): { privatePath: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const privatePath = path.join(dir, `${name}-private.pem`);
  writeFileSync(privatePath, privateKey.export({ type: "pkcs8", format: "pem" }));
  return { privatePath, publicPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

/** The real signed bundle with data.json edited after signing (as an attacker with write access to the file would). */
async function tampered(dir: string, edit: (data: any) => void): Promise<string> {
  const src = mkdtempSync(path.join(dir, "src-"));
  await extractTar({ file: POLICY_BUNDLE, cwd: src });
  const data = JSON.parse(readFileSync(path.join(src, "data.json"), "utf8"));
  edit(data);
  writeFileSync(path.join(src, "data.json"), JSON.stringify(data));
  const out = path.join(dir, "tampered.tar.gz");
  await createTar({ gzip: true, file: out, cwd: src }, [".manifest", ".signatures.json", "data.json", "policy.wasm"]);
  return out;
}

describe("policy bundles: reproducible and signed (issue 12 §5, issue 15 §6)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "memgate-signing-"));
  });

  it("MP-BREAK: building unchanged sources twice, from two checkouts at different paths, gives the same bytes and sha256", () => {
    const copy = path.join(dir, "elsewhere", "policies");
    cpSync(path.join(ROOT, "policies"), copy, { recursive: true });
    const first = buildSignedBundle(path.join(ROOT, "policies"), path.join(dir, "first.tar.gz"));
    const second = buildSignedBundle(copy, path.join(dir, "second.tar.gz"));
    expect(readFileSync(first).equals(readFileSync(second))).toBe(true);
    expect(sha256(first)).toBe(sha256(POLICY_BUNDLE));
  }, 60_000);

  it("MP-BREAK: the same sources signed with two different keys report the same policyVersion and two signer key ids (issue 22 §6)", async () => {
    const one = keyPair(dir, "clone-one");
    const two = keyPair(dir, "clone-two");
    const first = buildSignedBundle(path.join(ROOT, "policies"), path.join(dir, "clone-one.tar.gz"), { MEMGATE_POLICY_SIGNING_KEY: one.privatePath });
    const second = buildSignedBundle(path.join(ROOT, "policies"), path.join(dir, "clone-two.tar.gz"), { MEMGATE_POLICY_SIGNING_KEY: two.privatePath });
    expect(sha256(first)).not.toBe(sha256(second)); // the files differ: each carries its own signature
    const [a, b] = await Promise.all([
      loadBundle(first, bundleTrust(one.publicPem + two.publicPem)),
      loadBundle(second, bundleTrust(one.publicPem + two.publicPem)),
    ]);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).toBe(b.hash);
    expect(a.signerKeyId).not.toBe(b.signerKeyId);
    expect(a.signerKeyId).toBe(await keyIdOf(createPublicKey(one.publicPem)));
    expect(b.signerKeyId).toBe(await keyIdOf(createPublicKey(two.publicPem)));
    // and the development build of the same sources: the same version again
    expect((await loadBundle(POLICY_BUNDLE)).hash).toBe(a.hash);
  }, 60_000);

  describe("before load, the signature is verified (.signatures.json JWT over the files' digests)", () => {
    let engine: PolicyEngine;
    let bundlePath: string;
    let inForce: string;
    const refusedWith = async (file: string): Promise<PolicyBundleSignatureError> => {
      copyFileSync(file, bundlePath);
      expect(await engine.reload()).toBe(false);
      expect(engine.hash).toBe(inForce); // the previous policy stays in force
      expect(engine.decide({ operation: "STORE", contract: "governed" }).policy_hash).toBe(inForce);
      const failure = engine.lastFailure;
      expect(failure).toBeInstanceOf(PolicyBundleSignatureError);
      expect((failure as PolicyBundleSignatureError).bundleHash).toBe(sha256(file));
      return failure as PolicyBundleSignatureError;
    };

    beforeEach(async () => {
      bundlePath = path.join(mkdtempSync(path.join(dir, "engine-")), "bundle.tar.gz");
      copyFileSync(POLICY_BUNDLE, bundlePath);
      engine = new PolicyEngine(bundlePath, logger, bundleTrust(undefined));
      expect(await engine.reload()).toBe(true);
      inForce = engine.hash!;
    });
    afterEach(() => engine.close());

    it("C19-FAIL: an unsigned bundle (plain opa build) is refused like a corrupt one", async () => {
      const unsigned = path.join(dir, "unsigned.tar.gz");
      execFileSync(path.join(ROOT, ".tools", "bin", "opa"), [
        "build",
        "-t",
        "wasm",
        "-e",
        "memgate/main/decision",
        "--ignore",
        "*_test.rego",
        "-o",
        unsigned,
        path.join(ROOT, "policies"),
      ]);
      expect((await refusedWith(unsigned)).problem).toBe("unsigned");
    }, 30_000);

    it("C19-FAIL: a signed bundle whose data.json was edited afterwards (a forbidden category allowed) is refused", async () => {
      const edited = await tampered(dir, (data) => {
        data.memgate.contract.categories.HEALTH = { description: "let it in", value_max: 100, ttl_classes: ["LONG"], source_kinds: ["USER_EXPLICIT"] };
      });
      expect((await refusedWith(edited)).problem).toBe("digest_mismatch");
    });

    it("C19-FAIL: a bundle signed with a key that is not trusted is refused", async () => {
      const stranger = keyPair(dir, "stranger");
      const foreign = buildVariant("foreign", "memgate/contract/data.json", () => undefined, { MEMGATE_POLICY_SIGNING_KEY: stranger.privatePath });
      expect((await refusedWith(foreign)).problem).toBe("signature_invalid");
    }, 30_000);

    it("rotation: with the old and the new public key configured, bundles signed by either load; dropping the old key refuses its bundles", async () => {
      const next = keyPair(dir, "next");
      const byNext = buildVariant("next", "memgate/contract/data.json", (d) => (d.version = "19.1.0-next"), { MEMGATE_POLICY_SIGNING_KEY: next.privatePath });
      const both = bundleTrust(readFileSync(DEV_POLICY_PUBLIC_KEY, "utf8") + next.publicPem);
      const rotating = new PolicyEngine(bundlePath, logger, both);
      expect(await rotating.reload()).toBe(true); // signed with the development key
      copyFileSync(byNext, bundlePath);
      expect(await rotating.reload()).toBe(true); // signed with the new key
      expect(rotating.contract.version).toBe("19.1.0-next");
      const onlyOld = new PolicyEngine(bundlePath, logger, bundleTrust(readFileSync(DEV_POLICY_PUBLIC_KEY, "utf8")));
      expect(await onlyOld.reload()).toBe(false);
      const onlyNew = new PolicyEngine(POLICY_BUNDLE, logger, bundleTrust(next.publicPem));
      expect(await onlyNew.reload()).toBe(false);
      expect((onlyNew.lastFailure as PolicyBundleSignatureError).problem).toBe("signature_invalid");
    }, 30_000);
  });
});

import { generateKeyPairSync } from "node:crypto";
import { SignJWT } from "jose";
import { ManualClock } from "../../src/clock";
import { AuthenticationError, TokenVerifier } from "../../src/auth/token-verifier";

/** The verified-token cache saves the signature check of a token seen a moment ago; it must never extend what the token allows. */
describe("SPEC D5 D6: verified tokens kept for a moment never outlive their exp", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const clock = new ManualClock("2026-11-23T12:00:00.000Z");
  const verifier = TokenVerifier.create({
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    issuer: "memgate-test",
    audience: "memgate",
    algorithms: ["EdDSA"],
    clock,
  });
  const sign = (expiresInS: number) =>
    new SignJWT({ tenant: "t", subjects: ["alice"], roles: ["agent"] })
      .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
      .setSubject("agent-1")
      .setIssuer("memgate-test")
      .setAudience("memgate")
      .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + expiresInS)
      .sign(privateKey);

  it("a token verified once is refused as expired the moment its exp passes, cached or not", async () => {
    const token = await sign(30);
    const first = await verifier.verify(token);
    expect(await verifier.verify(token)).toBe(first); // the second answer is the kept one
    clock.advance(30_000);
    await expect(verifier.verify(token)).rejects.toThrow(new AuthenticationError("token expired"));
  });

  it("a token whose signature fails is never kept: a tampered copy is refused every time", async () => {
    const token = await sign(600);
    await verifier.verify(token);
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    await expect(verifier.verify(tampered)).rejects.toThrow(AuthenticationError);
    await expect(verifier.verify(tampered)).rejects.toThrow(AuthenticationError);
  });
});

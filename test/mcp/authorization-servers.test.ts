import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/config";
import { TEST_AUDIENCE, TEST_PUBLIC_KEY_PEM } from "../support/tokens";

const config = (env: Record<string, string>) =>
  loadConfig({
    MEMGATE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memgate-as-")),
    JWT_PUBLIC_KEY: TEST_PUBLIC_KEY_PEM,
    JWT_AUDIENCE: TEST_AUDIENCE,
    PORT: "0",
    ...env,
  }).mcp.authorizationServers;

/** RFC 9728 protected-resource metadata names where tokens come from (issue 24 item 1). */
describe("authorization_servers of /mcp's protected-resource metadata", () => {
  it("defaults to the configured issuer when it is a URL; MEMGATE_AUTHORIZATION_SERVERS overrides; a non-URL issuer names none", () => {
    expect(config({ JWT_ISSUER: "https://auth.example.com" })).toEqual(["https://auth.example.com"]);
    expect(config({ JWT_ISSUER: "https://auth.example.com", MEMGATE_AUTHORIZATION_SERVERS: "https://a.example, https://b.example" })).toEqual([
      "https://a.example",
      "https://b.example",
    ]);
    expect(config({ JWT_ISSUER: "memgate-dev" })).toEqual([]);
  });
});

import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { ledgerPageRouter } from "../../src/http/ledger-page";
import { startTestGateway, type TestGateway } from "../support/gateway";

describe("GET /ledger/ serves the built page", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.stop());

  it("redirects /ledger to /ledger/ and serves the page and its bundle with a strict content security policy", async () => {
    const redirect = await fetch(`${gw.url}/ledger`, { redirect: "manual" });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("location")).toBe("/ledger/");
    const page = await fetch(`${gw.url}/ledger/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="./app.js">');
    const bundle = await fetch(`${gw.url}/ledger/app.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
    expect((await fetch(`${gw.url}/ledger/nope.js`)).status).toBe(404);
  });

  it("answers 503 with the command to run when the page was not built", async () => {
    const app = express().use(ledgerPageRouter(mkdtempSync(path.join(os.tmpdir(), "memgate-no-page-"))));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ledger/`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain("npm run web:build");
    } finally {
      server.close();
    }
  });
});

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ManualClock } from "../../src/clock";
import { freePort } from "../deploy/runtime-tree";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { LEDGER } from "./helpers";

const CHROMIUM = process.env.MEMGATE_CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const SESSION = "memgate.ledger.session";

/** Waits for a condition the page reaches by itself (no fixed sleep): polls it until true or the deadline. */
async function until(what: string, check: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Issue 25 §1: a person signs in to the ledger page with OpenID Connect (code + PKCE, discovery)
 * against a real provider (oidc-provider) in headless Chromium; the gateway verifies the ID token
 * by the provider's JWKS, with its claim names mapped by configuration (tenant "org", roles
 * "memgate_roles" among unknown groups, subjects from sub). Then refresh, sign-out and expiry.
 */
describe("the ledger page signs a person in with OpenID Connect", () => {
  const sessionClock = new ManualClock(new Date());
  let provider: ChildProcess;
  let issuer: string;
  let gw: TestGateway;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not at ${CHROMIUM}: run bash scripts/bootstrap.sh --browser`);
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    gw = await startTestGateway({
      sessionClock,
      env: {
        JWT_PUBLIC_KEY: "",
        JWT_JWKS_URL: `${issuer}/jwks`,
        JWT_ISSUER: issuer,
        JWT_AUDIENCE: "memgate-ledger",
        JWT_REQUIRE_TYP: "false",
        MEMGATE_CLAIM_TENANT: "org",
        MEMGATE_CLAIM_ROLES: "memgate_roles",
        MEMGATE_IGNORE_UNKNOWN_ROLES: "true",
        MEMGATE_SUBJECTS_FROM_SUB: "true",
        MEMGATE_OIDC_ISSUER: issuer,
        MEMGATE_OIDC_CLIENT_ID: "memgate-ledger",
        MEMGATE_OIDC_SCOPE: "openid profile memgate offline_access",
      },
    });
    provider = spawn(process.execPath, [path.join(__dirname, "oidc-provider.mjs"), String(port), `${gw.url}/ledger/`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      provider.stdout!.once("data", () => resolve());
      provider.once("exit", (code) => reject(new Error(`the OpenID provider exited ${code}`)));
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.clock.install(); // time flows; the test jumps it forward to reach the refresh
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    provider?.kill("SIGTERM");
    await gw?.stop();
  });

  const session = async () =>
    (await page.evaluate(`JSON.parse(sessionStorage.getItem("${SESSION}") || "null")`)) as { token: string; refreshToken?: string } | null;
  const token = async () => (await session())?.token ?? null;

  async function signInAt(login: string) {
    await page.getByLabel("login").or(page.locator('input[name="login"]')).first().fill(login);
    await page.locator('input[name="password"]').fill("any password");
    await page.keyboard.press("Enter");
  }

  it("issue 25: signs in by keyboard through the provider (code + PKCE) and opens the person's own ledger", async () => {
    await page.goto(`${gw.url}/ledger/`);
    const signIn = page.getByRole("button", { name: "Sign in" });
    await signIn.waitFor();
    expect(await page.getByLabel("Access token").count()).toBe(0); // no token box when a provider is configured
    expect(await signIn.evaluate((el: any) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.href.startsWith(issuer));
    // (the provider requires PKCE: pkce.required, so signing in below proves the page sent it)
    await signInAt("alice");
    await page.getByRole("heading", { name: /What is remembered/ }).waitFor();
    await page.getByText("Signed in as Person alice").waitFor();
    expect(page.url()).toBe(`${gw.url}/ledger/`); // the code is not left in the address bar
    await page.locator('[data-live="on"]').waitFor();
    const idToken = (await token())!;
    // The gateway mapped the provider's claims: tenant acme, subject alice, role user.
    expect((await gw.gql(idToken, LEDGER, {})).data!.ledger.stopReason).toBe("SUCCESS_LISTED");
  });

  it("issue 25: signing out ends the session here and at the provider", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.href.startsWith(issuer));
    await page.getByRole("button", { name: /sign me out/i }).click(); // the provider's own confirmation
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await token()).toBeNull();
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator('input[name="login"]').waitFor(); // the provider asks again: its session ended too
    await signInAt("alice");
    await page.getByRole("heading", { name: /What is remembered/ }).waitFor();
  });

  it("issue 25: an expired token ends the sign-in with a sentence, not an error code", async () => {
    // Off the page first: an open page whose live socket the gateway closes at the expiry check
    // would end the session itself, racing the reload (then the new page finds no session at all).
    await page.goto("about:blank");
    sessionClock.advance(3 * 3_600_000); // the gateway's clock: past the token's exp
    await page.goto(`${gw.url}/ledger/`); // the tab's sessionStorage still holds the token
    await page.getByRole("alert").filter({ hasText: "Your sign-in has ended. Please sign in again." }).waitFor();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await token()).toBeNull();
    sessionClock.set(new Date());
  });

  // Last of the browser steps: it jumps the page's clock 56 minutes ahead for good.
  it("issue 25: renews the token with the refresh token before it expires, and keeps working", async () => {
    await page.getByRole("button", { name: "Sign in" }).click();
    const form = page.locator('input[name="login"]');
    const ledger = page.getByRole("heading", { name: /What is remembered/ });
    // The provider may still hold the person's session (then it answers at once, without its form).
    await Promise.race([form.waitFor().catch(() => undefined), ledger.waitFor().catch(() => undefined)]);
    if (await form.isVisible()) await signInAt("alice");
    await ledger.waitFor();
    const before = (await session())!;
    // The page's refresh grant, seen on the wire. Its ID token may be byte-identical to the first
    // one when both are issued within the same second (same claims, same iat, RS256 is
    // deterministic), so the proof is the grant and its answer kept in the session, not a new string.
    const renewal = page.waitForResponse((r) => r.url().endsWith("/token") && /grant_type=refresh_token/.test(r.request().postData() ?? ""));
    await page.clock.fastForward("56:00"); // the ID token lives an hour; the page renews 5 minutes before
    const answer = await renewal;
    expect(answer.status()).toBe(200);
    const renewed = (await answer.json()) as { id_token: string; refresh_token?: string };
    expect(renewed.id_token).toEqual(expect.any(String));
    await until("the renewed tokens in the session", async () => {
      const now = await session();
      return now?.token === renewed.id_token && now.refreshToken === (renewed.refresh_token ?? before.refreshToken);
    });
    expect((await gw.gql(renewed.id_token, LEDGER, {})).data!.ledger.stopReason).toBe("SUCCESS_LISTED");
    await page.reload();
    await page.getByRole("heading", { name: /What is remembered/ }).waitFor();
  });

  it("logged no script error", () => {
    expect(errors).toEqual([]);
  });
});

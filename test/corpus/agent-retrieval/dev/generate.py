# Regenerates memories.json and queries.json (deterministic: seeded). python3 generate.py
import json, os, random
HERE = os.path.dirname(os.path.abspath(__file__))  # the DEVELOPMENT split: tune here only
random.seed(6)
M = []  # memories: id, kind, text, scope, confidence, links, days_ago
def mem(id, kind, text, scope="repo", conf=0.85, problem=None, related=None, targets=None, days=10):
    M.append({"id": id, "kind": kind, "text": text, "scope": scope, "confidence": conf,
              "links": {k: v for k, v in {"problem_id": problem, "related_memory_ids": related, "change_targets": targets}.items() if v},
              "days_ago": days})

# --- hand-written clusters: problems, solutions, failed tactics
C = [
 ("jest", "Jest tests time out in CI when the Postgres test container is slow to start",
  "Wait for the Postgres healthcheck in globalSetup before running Jest suites",
  "Raising jest testTimeout to 120 seconds only hid the slow container start"),
 ("hydration", "React hydration mismatch on the product page because prices are formatted with the server locale",
  "Format prices with Intl.NumberFormat using the locale from the request, passed to the client as a prop",
  "Suppressing hydration warnings with suppressHydrationWarning left wrong prices visible"),
 ("esm", "Importing node-fetch v3 throws ERR_REQUIRE_ESM in the CommonJS build of the api",
  "Use the global fetch of Node 20 instead of node-fetch",
  "Downgrading node-fetch to v2 broke the typings of the streaming helpers"),
 ("stripe", "Stripe webhook signature verification fails with 400 in production",
  "Mount express.raw for the /webhooks/stripe route before express.json so the raw body reaches constructEvent",
  "Re-serialising req.body with JSON.stringify before verifying still fails the signature"),
 ("redis", "Redis connection errors ECONNRESET after the cache cluster failover",
  "Enable ioredis reconnectOnError for READONLY errors and set maxRetriesPerRequest to 3",
  None),
 ("docker", "Docker image build takes 12 minutes because node_modules is reinstalled on every change",
  "Copy package.json and package-lock.json first and run npm ci in its own layer before copying the sources",
  "Using a .dockerignore alone did not keep the npm ci layer cached"),
 ("memory", "The order worker leaks memory until it is OOM killed after about six hours",
  "Close the per-job Prisma client; reuse one PrismaClient per worker process",
  "Increasing the container memory limit to 2 GB only delayed the OOM kill"),
 ("cors", "Browser requests from the admin dashboard fail with a CORS preflight error on PATCH",
  "Add PATCH to the allowed methods of the cors middleware and answer OPTIONS before authentication",
  None),
 ("timezone", "Daily sales report shows yesterday's totals for customers in Australia",
  "Compute report day boundaries in the shop's configured time zone with date-fns-tz",
  "Storing timestamps as local time strings made the daylight saving days double count"),
 ("flaky", "The checkout end-to-end test is flaky because the payment iframe loads late",
  "Wait for the payment iframe frameLocator to be visible before typing the card number in Playwright",
  "Adding waitForTimeout of five seconds made the checkout test slower and still flaky"),
 ("migration", "Prisma migrate deploy fails on the orders table with a lock timeout during business hours",
  "Run long migrations with a lock_timeout and split the index creation into CREATE INDEX CONCURRENTLY",
  None),
 ("images", "Product images are served uncompressed and make the category page slow on mobile",
  "Serve product images through the next/image loader with AVIF and WebP formats",
  "Compressing the originals with a pre-commit hook bloated the git history"),
 ("auth", "Users get logged out after 15 minutes even when they are active",
  "Refresh the access token silently with the refresh token when less than two minutes remain",
  None),
 ("search", "Search for products with accented names like creme brulee returns nothing",
  "Normalise product names with unaccent in the Postgres full text search configuration",
  "Lower-casing the query in the client did not match accented product names"),
 ("email", "Order confirmation emails land in spam for Outlook recipients",
  "Publish DKIM and DMARC records for the mail subdomain and send from that subdomain",
  None),
 ("build", "TypeScript build of the monorepo takes four minutes in CI",
  "Use project references with tsc --build and cache the tsbuildinfo files between CI runs",
  "Switching the CI runner to a bigger machine barely changed the TypeScript build time"),
 ("rate", "The public catalog API is hammered by a scraper and latency spikes",
  "Apply a token bucket rate limiter per API key and per IP at the gateway",
  None),
 ("i18n", "German translations overflow the checkout buttons",
  "Let checkout buttons wrap text and test with the longest locale in Storybook",
  None),
 ("lint", "ESLint takes 90 seconds on every commit hook",
  "Run ESLint only on staged files with lint-staged and enable the ESLint cache",
  None),
 ("csv", "Exporting orders to CSV breaks Excel when customer names contain commas",
  "Quote every CSV field and prefix the file with a UTF-8 byte order mark for Excel",
  None),
 ("queue", "Duplicate order emails are sent when the queue worker retries a job",
  "Make the email job idempotent with a sent_emails table keyed by order id and template",
  "Turning off retries in the queue lost emails when the SMTP server was down"),
 ("sentry", "Sentry is flooded with ResizeObserver loop limit exceeded errors",
  "Ignore the ResizeObserver loop error in the Sentry beforeSend filter",
  None),
 ("decimal", "Cart totals are off by one cent because prices are summed as floating point numbers",
  "Store and sum money as integer cents and format only at the edge",
  "Rounding the total with toFixed(2) still produced off-by-one-cent totals"),
 ("upload", "Uploading large product CSV files fails with 413 Payload Too Large",
  "Upload imports directly to S3 with a presigned URL and process them in a background job",
  "Raising the nginx client_max_body_size to 500m made the api run out of memory"),
 ("graphql", "The GraphQL products query is slow because of N+1 queries for variants",
  "Batch variant lookups with DataLoader per request",
  None),
 ("cache", "Customers see stale prices after a price change for up to an hour",
  "Purge the CDN cache for the product paths when a price changes",
  None),
]
qs = []
n = 0
for key, p, s, f in C:
    n += 1
    pid, sid, fid = f"p-{key}", f"s-{key}", f"f-{key}"
    mem(pid, "problem", p, days=random.randint(5, 200))
    mem(sid, "solution", s, problem=pid, days=random.randint(1, 150), conf=0.9)
    if f:
        mem(fid, "failed_tactic", f, problem=pid, days=random.randint(1, 150), conf=0.8)

# --- facts, preferences (some global), changes that invalidate older facts
facts = [
 ("node", "The api and the web app run on Node 18"),
 ("pkg", "The monorepo uses yarn 1 workspaces"),
 ("ci", "CI runs on CircleCI with the config in .circleci/config.yml"),
 ("orm", "The api talks to Postgres through TypeORM"),
 ("deploy", "Production deploys happen from the main branch with Heroku pipelines"),
 ("test", "Unit tests use Mocha and Chai"),
 ("css", "Styles are written with styled-components"),
 ("state", "The web app keeps client state in Redux"),
]
changes = [
 ("node", "Upgraded the api and the web app from Node 18 to Node 20"),
 ("pkg", "Moved the monorepo from yarn 1 to pnpm workspaces"),
 ("ci", "Migrated CI from CircleCI to GitHub Actions workflows"),
 ("orm", "Replaced TypeORM with Prisma for all Postgres access"),
 ("deploy", "Production now deploys to Fly.io from release tags instead of Heroku"),
 ("test", "Replaced Mocha and Chai with Vitest for unit tests"),
 ("css", "Switched styling from styled-components to Tailwind CSS"),
 ("state", "Replaced Redux with Zustand stores and TanStack Query for server state"),
]
for key, t in facts:
    mem(f"old-{key}", "fact", t, days=random.randint(200, 400), conf=0.9)
for key, t in changes:
    mem(f"chg-{key}", "change", t, targets=[f"old-{key}"], days=random.randint(1, 60), conf=0.95)

more_facts = [
 ("env", "Secrets for local development come from the .env.local file, which is git-ignored"),
 ("port", "The api listens on port 4000 and the web app on port 3000 in development"),
 ("flags", "Feature flags are managed in LaunchDarkly and read through the flags service"),
 ("logging", "Logs are structured JSON written with pino and shipped to Datadog"),
 ("storybook", "Storybook for the design system runs with npm run storybook on port 6006"),
 ("money", "All prices are stored in the database as integer cents in the currency of the shop"),
 ("locale", "Supported locales are en, de, fr and nl; en is the fallback"),
 ("payments", "Payments go through Stripe; PayPal is offered through Stripe's payment methods"),
 ("search-engine", "Product search uses Postgres full text search, not Elasticsearch"),
 ("owners", "The checkout code is owned by the payments team; ask in #team-payments"),
 ("release", "Releases are cut every Tuesday and Thursday"),
 ("seed", "npm run db:seed fills the local database with 500 demo products"),
]
for key, t in more_facts:
    mem(f"fact-{key}", "fact", t, days=random.randint(10, 300))
prefs = [
 ("commits", "Write commit messages in the imperative mood with a short subject line", "global"),
 ("tests", "Every bug fix comes with a regression test that fails before the fix", "global"),
 ("any", "Avoid the TypeScript any type; use unknown and narrow it", "global"),
 ("pr", "Keep pull requests under 400 changed lines; split bigger ones", "global"),
 ("naming", "React components use PascalCase file names; hooks start with use", "repo"),
 ("errors", "Return typed error results from services instead of throwing for expected failures", "repo"),
 ("deps", "Ask before adding a new runtime dependency to the web bundle", "repo"),
 ("sql", "Write raw SQL only in the repository layer, never in route handlers", "repo"),
]
for key, t, scope in prefs:
    mem(f"pref-{key}", "preference", t, scope=scope, days=random.randint(10, 300))

# --- distractors: realistic but off-target notes about many components
components = ["cart", "checkout", "catalog", "inventory", "shipping", "invoices", "returns", "reviews", "wishlist", "coupons",
              "admin dashboard", "customer profile", "newsletter", "gift cards", "tax service", "warehouse sync", "recommendations",
              "notifications", "audit log", "loyalty points"]
fact_t = [
 "The {c} module keeps its API routes in src/routes/{s}.ts",
 "The {c} service exposes a health endpoint at /{s}/healthz",
 "Unit tests for {c} live next to the code in __tests__ folders",
 "The {c} feature is behind the {s}_v2 feature flag",
 "The {c} tables are prefixed with {s}_ in the database schema",
 "The {c} page is server rendered and cached for 60 seconds",
 "The {c} worker runs every 15 minutes from the scheduler",
 "Metrics for {c} are on the {s} Grafana dashboard",
]
prob_t = [
 ("The {c} page shows a spinner forever when the {s} endpoint returns an empty list",
  "Render an empty state for {c} when the list is empty instead of waiting"),
 ("Saving {c} settings returns 422 when optional fields are sent as empty strings",
  "Convert empty strings to null before validating {c} settings"),
 ("The {c} export job runs twice after a deploy",
  "Use a distributed lock around the {c} export job"),
 ("Pagination of {c} skips items when new rows are inserted",
  "Use keyset pagination on created_at and id for {c}"),
 ("The {c} admin table is slow with more than ten thousand rows",
  "Virtualise the {c} admin table rows"),
]
d = 0
for c in components:
    s = c.replace(" ", "_")
    for t in random.sample(fact_t, 6):
        d += 1
        mem(f"d-fact-{d}", "fact", t.format(c=c, s=s), days=random.randint(1, 500), conf=round(random.uniform(0.6, 0.95), 2))
    for pt, st in random.sample(prob_t, 3):
        d += 1
        mem(f"d-p-{d}", "problem", pt.format(c=c, s=s), days=random.randint(1, 500), conf=0.8)
        mem(f"d-s-{d}", "solution", st.format(c=c, s=s), problem=f"d-p-{d}", days=random.randint(1, 400), conf=0.85)

# --- labelled queries: (mode, query, expected ids)
Q = [
 ("targeted", "jest tests timing out in CI because of the postgres container", ["p-jest", "s-jest"]),
 ("ambient", "CI jest timeout postgres", ["s-jest"]),
 ("targeted", "how do I fix the hydration mismatch for prices", ["s-hydration", "p-hydration"]),
 ("targeted", "ERR_REQUIRE_ESM when importing node-fetch", ["p-esm", "s-esm"]),
 ("ambient", "stripe webhook signature fails with 400", ["s-stripe", "p-stripe"]),
 ("targeted", "what did not work for the stripe webhook signature", ["f-stripe"]),
 ("targeted", "ioredis ECONNRESET after failover", ["s-redis", "p-redis"]),
 ("ambient", "docker build slow npm ci layer cache", ["s-docker"]),
 ("targeted", "order worker out of memory OOM killed", ["p-memory", "s-memory"]),
 ("targeted", "did raising the memory limit fix the worker OOM", ["f-memory"]),
 ("ambient", "CORS preflight PATCH admin dashboard", ["s-cors", "p-cors"]),
 ("targeted", "sales report wrong day for Australian customers time zone", ["p-timezone", "s-timezone"]),
 ("targeted", "flaky checkout e2e test payment iframe playwright", ["s-flaky", "p-flaky"]),
 ("ambient", "waitForTimeout in the checkout test", ["f-flaky"]),
 ("targeted", "prisma migration lock timeout on orders", ["p-migration", "s-migration"]),
 ("ambient", "product images slow on mobile avif webp", ["s-images"]),
 ("targeted", "users logged out after 15 minutes refresh token", ["s-auth", "p-auth"]),
 ("targeted", "search for accented product names unaccent", ["s-search", "p-search"]),
 ("ambient", "emails go to spam in outlook DKIM", ["s-email"]),
 ("targeted", "speed up the typescript build in CI project references", ["s-build"]),
 ("ambient", "scraper rate limiting the catalog API", ["s-rate"]),
 ("targeted", "german translations overflow buttons", ["p-i18n", "s-i18n"]),
 ("ambient", "eslint slow pre-commit hook lint-staged", ["s-lint"]),
 ("targeted", "csv export commas excel", ["s-csv", "p-csv"]),
 ("targeted", "duplicate order emails when the queue retries", ["p-queue", "s-queue"]),
 ("ambient", "ResizeObserver loop errors in sentry", ["s-sentry"]),
 ("targeted", "cart total off by one cent floating point", ["s-decimal", "p-decimal"]),
 ("targeted", "413 payload too large when uploading product csv", ["p-upload", "s-upload"]),
 ("ambient", "N+1 queries graphql variants dataloader", ["s-graphql"]),
 ("targeted", "stale prices after price change CDN", ["s-cache", "p-cache"]),
 ("ambient", "which node version do we run", ["chg-node"]),
 ("targeted", "package manager of the monorepo workspaces", ["chg-pkg"]),
 ("ambient", "where does CI run", ["chg-ci"]),
 ("targeted", "which ORM do we use for postgres", ["chg-orm"]),
 ("ambient", "how do production deploys happen", ["chg-deploy"]),
 ("targeted", "what test framework for unit tests", ["chg-test"]),
 ("ambient", "how are styles written css", ["chg-css"]),
 ("targeted", "client state management redux", ["chg-state"]),
 ("ambient", "local development secrets env file", ["fact-env"]),
 ("targeted", "which port does the api listen on", ["fact-port"]),
 ("ambient", "feature flags launchdarkly", ["fact-flags"]),
 ("targeted", "how are prices stored in the database", ["fact-money"]),
 ("ambient", "commit message style", ["pref-commits"]),
 ("targeted", "should a bug fix include a test", ["pref-tests"]),
 ("ambient", "typescript any type", ["pref-any"]),
 ("targeted", "how big may a pull request be", ["pref-pr"]),
 ("ambient", "adding a new dependency to the web bundle", ["pref-deps"]),
 ("targeted", "who owns the checkout code", ["fact-owners"]),
 ("ambient", "seed the local database with demo products", ["fact-seed"]),
 ("targeted", "does product search use elasticsearch", ["fact-search-engine"]),
]
ids = {m["id"] for m in M}
for mode, q, exp in Q:
    for e in exp: assert e in ids, e
print(len(M), "memories", len(Q), "queries")
json.dump({"repo_id": "acme/shop", "description": "A TypeScript web shop monorepo as a coding agent would remember it: problems with their solutions and failed tactics, facts, preferences (some global), and changes that invalidate older facts. Ids are local; the eval maps them to stored ids.", "memories": M}, open(os.path.join(HERE, "memories.json"), "w"), indent=1)
json.dump({"description": "Labelled queries: mode, query text, and the local ids a good answer has in its top 5. An invalidated fact is never expected; its change is.", "queries": [{"mode": m, "query": q, "expected": e} for m, q, e in Q]}, open(os.path.join(HERE, "queries.json"), "w"), indent=1)

# The held-out TEST split of agent retrieval (issue 13 item 4). Written in full, queries and
# expectations included, BEFORE any change to ranking was made or measured against it; never
# edited to pass. Tune on ../dev only. Regenerate: python3 build.py (deterministic).
import json, os
HERE = os.path.dirname(os.path.abspath(__file__))
M = []
def mem(id, kind, text, problem=None, related=None, targets=None, scope="repo", conf=0.85, days=30):
    M.append({"id": id, "kind": kind, "text": text, "scope": scope, "confidence": conf,
              "links": {k: v for k, v in {"problem_id": problem, "related_memory_ids": related, "change_targets": targets}.items() if v},
              "days_ago": days})

# Problems with their solutions (often worded with none of the problem's words, as real fixes are)
# and failed tactics. A Django + Celery + Kubernetes dispatch backend for a delivery fleet.
C = [
 ("celery", "Celery workers stop consuming tasks after the RabbitMQ broker restarts",
  "Set broker_connection_retry_on_startup and enable heartbeats of 30 seconds in the worker settings",
  "Restarting the worker pods by hand every morning"),
 ("migrate", "Django migrations hang on the deliveries table during deploys",
  "Add the new column as nullable first and backfill in batches from a management command",
  "Running the migration with a bigger database instance"),
 ("gps", "Driver GPS pings arrive out of order and the map shows vehicles jumping backwards",
  "Sort pings by the device timestamp and drop any older than the last accepted one per vehicle",
  None),
 ("pdf", "Invoice PDF rendering takes over ten seconds for large customers",
  "Render invoices with WeasyPrint in a background task and email a signed download link",
  "Caching the rendered HTML template did not speed up the PDF step"),
 ("oom", "The route optimiser pod gets OOMKilled on Mondays",
  "Stream the week's orders in chunks of 500 instead of loading the queryset into a list",
  "Raising the memory limit to 4 GiB only postponed the kill"),
 ("tz", "Delivery windows show the wrong hour for depots in Arizona",
  "Store windows in UTC and convert with zoneinfo using the depot's IANA zone, never a fixed offset",
  None),
 ("flaky", "The dispatch integration test fails randomly on CI with IntegrityError",
  "Use a factory sequence for order numbers instead of random four-digit values",
  "Marking the test with pytest rerunfailures hid the collision"),
 ("n1", "The driver list endpoint is slow and issues hundreds of SQL queries",
  "Use select_related for vehicle and prefetch_related for shifts in the driver queryset",
  None),
 ("csrf", "Mobile app logins fail with 403 CSRF verification failed",
  "Exempt the token endpoint from CSRF and authenticate the app with JWT bearer tokens only",
  None),
 ("sms", "Customers receive the out-for-delivery SMS twice",
  "Make the notification task idempotent with a unique key per order and status in Redis",
  "Lowering Celery retries to zero lost messages when Twilio timed out"),
 ("helm", "Helm upgrade fails with immutable field error on the dispatch Deployment",
  "Keep the selector labels fixed and move the version label to the pod template only",
  None),
 ("cert", "The webhook endpoint for the telematics vendor fails TLS handshake",
  "Serve the full certificate chain including the intermediate from the ingress secret",
  None),
 ("geocode", "Geocoding addresses with apartment numbers returns the wrong building",
  "Strip the unit designator before calling the geocoder and keep it in a separate address field",
  "Switching geocoding providers gave the same wrong buildings"),
 ("locks", "Two dispatchers can assign the same parcel to different drivers",
  "Lock the parcel row with select_for_update inside the assignment transaction",
  None),
 ("static", "Admin pages load without CSS after the switch to the new container image",
  "Run collectstatic in the Dockerfile and serve static files with WhiteNoise",
  None),
 ("sentry", "Sentry is flooded with the same ConnectionResetError from the telematics client",
  "Wrap the telematics call in tenacity retries with jitter and report only after the last attempt",
  None),
 ("eta", "ETA predictions are late by twenty minutes during rush hour",
  "Retrain the ETA model with hour-of-week features and traffic speed from the last 15 minutes",
  "Adding a fixed ten minute buffer made morning ETAs too early"),
 ("disk", "The Postgres volume filled up overnight and writes failed",
  "Partition the gps_pings table by day and drop partitions older than 90 days",
  "Running VACUUM FULL locked the table for an hour"),
 ("signature", "Proof of delivery photos upload fails on slow 3G connections",
  "Upload photos in resumable chunks with tus and retry each chunk",
  None),
 ("import", "Nightly CSV import of customer addresses crashes on non UTF-8 files",
  "Detect the encoding with charset-normalizer before parsing the import file",
  None),
]
for name, problem, solution, failed in C:
    mem(f"p-{name}", "problem", problem, days=120)
    mem(f"s-{name}", "solution", solution, problem=f"p-{name}", conf=0.9, days=40)
    if failed:
        mem(f"f-{name}", "failed_tactic", failed, problem=f"p-{name}", conf=0.8, days=100)

# Facts, some later invalidated by a change (the change's text names what changed).
F = [
 ("py", "The backend runs on Python 3.11 with Django 4.2"),
 ("queue", "Celery uses RabbitMQ as its broker"),
 ("db", "The primary database is Postgres 14 on a managed instance"),
 ("maps", "Routing distances come from the OSRM server in the maps namespace"),
 ("deploy", "Deploys go out with Helm from the GitLab pipeline on merges to main"),
 ("tests", "Tests run with pytest and pytest-django; factories use factory_boy"),
 ("cache", "Redis 7 holds sessions and the idempotency keys of notification tasks"),
 ("auth", "The mobile app authenticates with short-lived JWT access tokens"),
 ("logs", "Logs are shipped as JSON to Loki and viewed in Grafana"),
 ("sms-vendor", "SMS notifications are sent through Twilio"),
 ("flags", "Feature flags are managed with django-waffle"),
 ("lint", "Code is formatted with black and linted with ruff"),
 ("storage", "Delivery photos are stored in an S3 bucket with a 180 day lifecycle rule"),
 ("api", "The public API is versioned under /api/v2 and documented with drf-spectacular"),
 ("cron", "Nightly jobs are scheduled with celery beat, not Kubernetes CronJobs"),
 ("depots", "There are 14 depots; each has its own time zone setting"),
 ("pager", "Alerts page the on-call engineer through Opsgenie"),
 ("secrets", "Secrets are injected from Vault through the vault-agent sidecar"),
]
for name, text in F:
    mem(f"fact-{name}", "fact", text, days=200)

# Changes: X changed and invalidates Y (IF1-CHANGE); the old fact must never come back in ambient reads.
mem("old-maps-key", "fact", "Geocoding uses the Google Maps API key stored in the settings module", days=300)
mem("chg-maps-key", "change", "Geocoding moved to the self-hosted Nominatim server; the Google Maps key was removed", targets=["old-maps-key"], days=20)
mem("old-python", "fact", "Workers run Python 3.8 because of the legacy PDF library", days=400)
mem("chg-python", "change", "Workers were upgraded to Python 3.11 after the PDF library was replaced by WeasyPrint", targets=["old-python"], related=["s-pdf"], days=25)
mem("old-ci", "fact", "CI runs on Jenkins with the shared agent pool", days=500)
mem("chg-ci", "change", "CI moved from Jenkins to GitLab pipelines with autoscaled runners", targets=["old-ci"], days=60)
mem("old-broker", "fact", "The message broker is Amazon SQS through kombu", days=450)
mem("chg-broker", "change", "Switched the Celery transport from SQS to RabbitMQ for priorities", targets=["old-broker"], days=150)
mem("old-eta", "fact", "ETA is computed as distance divided by a fixed average speed of 30 km/h", days=380)
mem("chg-eta", "change", "ETA now comes from the gradient boosted model served by the eta-predictor service", targets=["old-eta"], related=["s-eta"], days=35)
mem("old-photos", "fact", "Delivery photos are kept forever on the NFS share", days=420)
mem("chg-photos", "change", "Delivery photos moved to S3 with a lifecycle rule; the NFS share was retired", targets=["old-photos"], days=90)

# Preferences of the team (some global: they hold for every repository of this agent).
P = [
 ("pref-typing", "Prefer type hints on every new function and run mypy in strict mode on new modules", "repo"),
 ("pref-small-pr", "Keep pull requests under 400 changed lines; split refactors from behaviour changes", "global"),
 ("pref-tests", "Write a failing test before fixing a bug", "global"),
 ("pref-sql", "Prefer the Django ORM; raw SQL only with a comment explaining why", "repo"),
 ("pref-commits", "Commit messages in the imperative mood with the ticket id first", "global"),
 ("pref-logging", "Log with structlog key value pairs, never f-strings in log messages", "repo"),
]
for id, text, scope in P:
    mem(id, "preference", text, scope=scope, conf=0.9, days=150)

# Related links: runbook facts tied to each other.
mem("fact-oncall-runbook", "fact", "The on-call runbook lives in the ops wiki under Dispatch / Incidents", related=["fact-pager"], days=80)
mem("fact-backup", "fact", "Postgres is backed up nightly with point in time recovery for 14 days", related=["fact-db"], days=90)
mem("fact-restore", "fact", "Restoring a backup to staging takes about 40 minutes with the restore-db job", related=["fact-backup"], days=90)
mem("fact-vehicle-types", "fact", "Vehicle types are van, cargo bike and truck; cargo bikes skip motorway segments", days=110)
mem("fact-route-limits", "fact", "A route has at most 120 stops and 10 hours of driving", related=["fact-vehicle-types"], days=110)

# Distractors: near-miss text sharing words with the queries.
D = [
 "Celery task routing sends PDF rendering to the documents queue",
 "The RabbitMQ management UI is exposed only inside the VPN",
 "Django admin is restricted to staff accounts with two factor login",
 "The map view clusters vehicles when more than 50 are visible",
 "Invoices are numbered per depot and year",
 "The optimiser solves the vehicle routing problem with OR-Tools",
 "Arizona depots do not observe daylight saving time",
 "The IntegrityError on duplicate customer emails is shown as a form error",
 "The driver list supports filtering by depot and shift",
 "The mobile app is built with React Native and Expo",
 "SMS templates are translated into Spanish and Polish",
 "The dispatch Deployment runs three replicas behind the ingress",
 "The telematics vendor sends webhooks signed with HMAC SHA256",
 "Apartment buildings get a longer default service time of four minutes",
 "Parcels have a status history table with every transition",
 "The container image is built from python:3.11-slim",
 "Sentry releases are tagged with the git commit of the deploy",
 "Rush hour is defined as 7 to 9 and 16 to 18 local time",
 "The Postgres instance has 500 GB of storage and autoscaling disabled",
 "Photos are resized to 1600 pixels on the device before upload",
 "The CSV export of deliveries uses semicolons for the German depots",
 "Dispatchers work in two shifts and hand over at 14:00",
 "Driver apps send a GPS ping every 10 seconds while on a route",
 "Customer addresses are validated against the postal code list on entry",
 "The on-call rotation changes every Monday at 10:00",
 "Grafana dashboards for dispatch are provisioned from the ops repository",
]
for i, text in enumerate(D):
    mem(f"d-{i:02d}", "fact", text, days=60 + i)

# Labelled queries. "hop": the query describes the problem; the solution is reached through its link.
Q = []
def q(mode, query, expected, hop=False):
    Q.append({"mode": mode, "query": query, "expected": expected, **({"hop": True} if hop else {})})

# direct targeted questions (both problem and solution share words with the query)
q("targeted", "celery workers stop consuming after rabbitmq restart", ["p-celery", "s-celery"], hop=True)
q("targeted", "django migration hangs on deliveries table", ["p-migrate", "s-migrate"], hop=True)
q("targeted", "gps pings out of order vehicles jumping on map", ["p-gps", "s-gps"], hop=True)
q("targeted", "invoice pdf rendering too slow", ["p-pdf", "s-pdf"], hop=True)
q("targeted", "route optimiser OOMKilled", ["p-oom", "s-oom"], hop=True)
q("targeted", "delivery window wrong hour in arizona", ["p-tz", "s-tz"], hop=True)
q("targeted", "dispatch integration test IntegrityError on CI", ["p-flaky", "s-flaky"], hop=True)
q("targeted", "driver list endpoint slow too many SQL queries", ["p-n1", "s-n1"], hop=True)
q("targeted", "mobile login 403 CSRF verification failed", ["p-csrf", "s-csrf"], hop=True)
q("targeted", "customers get the SMS twice", ["p-sms", "s-sms"], hop=True)
q("targeted", "helm upgrade immutable field error", ["p-helm", "s-helm"], hop=True)
q("targeted", "telematics webhook TLS handshake fails", ["p-cert", "s-cert"], hop=True)
q("targeted", "geocoding apartment numbers wrong building", ["p-geocode", "s-geocode"], hop=True)
q("targeted", "same parcel assigned to two drivers", ["p-locks", "s-locks"], hop=True)
q("targeted", "admin pages missing CSS after new image", ["p-static", "s-static"], hop=True)
q("targeted", "sentry flooded with ConnectionResetError", ["p-sentry", "s-sentry"], hop=True)
q("targeted", "ETA late during rush hour", ["p-eta", "s-eta"], hop=True)
q("targeted", "postgres volume full writes failed", ["p-disk", "s-disk"], hop=True)
q("targeted", "proof of delivery photo upload fails on 3G", ["p-signature", "s-signature"], hop=True)
q("targeted", "nightly CSV import crashes on non UTF-8 file", ["p-import", "s-import"], hop=True)
# ambient: what should the agent be reminded of while working on ...
q("ambient", "rabbitmq broker restart workers idle", ["s-celery"], hop=True)
q("ambient", "OOMKilled optimiser monday", ["s-oom"], hop=True)
q("ambient", "duplicate SMS notifications", ["s-sms"], hop=True)
q("ambient", "migration hangs during deploy", ["s-migrate"], hop=True)
q("ambient", "parcel double assignment dispatchers", ["s-locks"], hop=True)
q("ambient", "which python version do the workers run", ["chg-python"])
q("ambient", "geocoding google maps api key", ["chg-maps-key"])
q("ambient", "CI jenkins agents", ["chg-ci"])
q("ambient", "message broker SQS kombu", ["chg-broker"])
q("ambient", "how is the ETA computed", ["chg-eta"])
q("ambient", "where are delivery photos stored", ["chg-photos", "fact-storage"])
# facts and preferences
q("targeted", "what database do we use", ["fact-db"])
q("targeted", "how are secrets injected into pods", ["fact-secrets"])
q("targeted", "feature flags library", ["fact-flags"])
q("targeted", "how to restore a postgres backup to staging", ["fact-restore", "fact-backup"])
q("targeted", "who gets paged for alerts and where is the runbook", ["fact-pager", "fact-oncall-runbook"])
q("ambient", "writing a new function type hints", ["pref-typing"])
q("ambient", "pull request size", ["pref-small-pr"])
q("ambient", "raw SQL query in a view", ["pref-sql"])
q("ambient", "log message formatting", ["pref-logging"])
q("targeted", "maximum stops per route", ["fact-route-limits"])
q("targeted", "what failed when we tried to fix the disk filling up", ["f-disk", "p-disk"])
q("targeted", "what did not work for the invoice pdf slowness", ["f-pdf"])
q("ambient", "nightly jobs scheduling", ["fact-cron"])

json.dump({"repo_id": "fleetops/dispatch",
           "description": "HELD-OUT test split: a Django + Celery + Kubernetes dispatch backend, written before any ranking change and never edited to pass. Ids are local; the eval maps them to stored ids.",
           "memories": M}, open(os.path.join(HERE, "memories.json"), "w"), indent=1)
json.dump({"description": "HELD-OUT labelled queries (mode, query, local ids a good answer has in its top 5; hop: the solution is reached through its problem link). An invalidated fact is never expected; its change is.",
           "queries": Q}, open(os.path.join(HERE, "queries.json"), "w"), indent=1)
print(len(M), "memories,", len(Q), "queries,", sum(1 for x in Q if x.get("hop")), "hop queries")

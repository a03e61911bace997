/**
 * One server of the benchmark, run as a child process so that it has the machine to
 * itself while autocannon loads it from the parent:
 *   constant  bare Apollo + type-graphql answering a constant (the GraphQL ceiling)
 *   raw       bare Apollo + type-graphql doing the same _id lookup (alone, and grouped as memgate groups it) / two inserts with the raw driver
 *   governed  the real memgate gateway
 * Each counts the database commands its driver starts (command monitoring) and tells the
 * parent on request ("commands"), so the table shows commands per request beside req/s.
 */
import "reflect-metadata";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import http from "node:http";
import { Session } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import { expressMiddleware } from "@as-integrations/express5";
import express from "express";
import { MongoClient, type CommandFailedEvent, type CommandStartedEvent, type CommandSucceededEvent, type Db } from "mongodb";
import { Arg, Field, ID, Mutation, ObjectType, Query, Resolver, buildSchema } from "type-graphql";
import { loadConfig } from "../src/config";
import { Gateway } from "../src/gateway";
import { LookupQueue } from "../src/store/lookup-queue";

@ObjectType()
class RawMemory {
  @Field(() => ID) memoryId!: string;
  @Field() key!: string;
  @Field() value!: string;
}

let db: Db;
interface RawDoc {
  _id: string;
  memory_id: string;
  key: string;
  value: string;
}
let grouped: LookupQueue<RawDoc>;
/** Database commands started by this server's driver (background work included), and by command and collection. */
let commands = 0;
const byKind = new Map<string, number>();

let idle: () => Promise<void> = async () => undefined;
/** What a server that stopped answering is waiting for (the bench asks when a probe times out). */
let diagnose: () => Record<string, unknown> = () => ({});

/** HTTP requests received, and those not yet answered (autocannon leaves some in flight when it stops). */
let requests = 0;
let inFlight = 0;

function watch(server: http.Server): void {
  server.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    requests++;
    inFlight++;
    // Answered when the handler ends the response, even if the client has gone already.
    const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
    let open = true;
    res.end = ((...args: unknown[]) => {
      if (open) inFlight--;
      open = false;
      return end(...args);
    }) as typeof res.end;
  });
}

/** Milliseconds the database took, by command and collection (BENCH_COMMANDS). */
const kindOf = new Map<number, string>();
const timeByKind = new Map<string, number>();

function count(event: CommandStartedEvent): void {
  commands++;
  const kind = `${event.commandName} ${String(event.command[event.commandName])}`;
  byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  kindOf.set(event.requestId, kind);
}

function timed(event: CommandSucceededEvent | CommandFailedEvent): void {
  const kind = kindOf.get(event.requestId);
  kindOf.delete(event.requestId);
  if (kind) timeByKind.set(kind, (timeByKind.get(kind) ?? 0) + event.duration);
}

function monitor(client: MongoClient): void {
  client.on("commandStarted", count);
  client.on("commandSucceeded", timed);
  client.on("commandFailed", timed);
}

/** The same server, with the driver's command monitoring on. */
function monitored(uri: string): string {
  const url = new URL(uri);
  url.searchParams.set("monitorCommands", "true");
  return url.toString();
}

@Resolver()
class ConstantResolver {
  @Query(() => String)
  ping(): string {
    return "pong";
  }
}

@Resolver()
class RawResolver {
  @Query(() => RawMemory, { nullable: true })
  async rawMemory(@Arg("id", () => ID) id: string): Promise<RawMemory | null> {
    const doc = await db.collection<RawDoc>("memories").findOne({ _id: id });
    return doc && { memoryId: doc.memory_id, key: doc.key, value: doc.value };
  }

  /** The same lookup, grouped with concurrent ones as memgate groups its reads (src/store/lookup-queue.ts). */
  @Query(() => RawMemory, { nullable: true })
  async rawMemoryGrouped(@Arg("id", () => ID) id: string): Promise<RawMemory | null> {
    const doc = await grouped.get(id);
    return doc && { memoryId: doc.memory_id, key: doc.key, value: doc.value };
  }

  @Mutation(() => RawMemory)
  async rawStore(@Arg("key") key: string, @Arg("value") value: string): Promise<RawMemory> {
    const memoryId = randomUUID();
    await db
      .collection<{ _id: string } & Record<string, unknown>>("raw_memories")
      .insertOne({ _id: memoryId, memory_id: memoryId, key, value, created_at: new Date() });
    await db
      .collection<{ _id: string } & Record<string, unknown>>("raw_events")
      .insertOne({ _id: randomUUID(), memory_id: memoryId, type: "create", at: new Date() });
    return { memoryId, key, value };
  }
}

async function bareServer(kind: "constant" | "raw", uri: string, dbName: string): Promise<number> {
  if (kind === "raw") {
    const client = await MongoClient.connect(monitored(uri), { maxPoolSize: 50 });
    monitor(client);
    db = client.db(dbName);
    grouped = new LookupQueue(db.collection<RawDoc>("memories"));
  }
  const schema = await buildSchema({ resolvers: kind === "constant" ? [ConstantResolver] : [RawResolver], validate: false });
  // Configured as the gateway configures Apollo (src/http/server.ts), so the rows compare memgate's own work.
  const apollo = new ApolloServer({ schema, plugins: [ApolloServerPluginCacheControlDisabled()] });
  await apollo.start();
  const app = express();
  app.set("etag", false);
  app.use("/graphql", express.json(), expressMiddleware(apollo));
  const server = http.createServer(app);
  watch(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * BENCH_CPU_PROFILE=<dir>: the server's V8 CPU profile over one scenario's load and drain (start-up
 * and seeding left out), started and written when the parent asks.
 */
let profiler: Session | undefined;

async function startProfile(): Promise<void> {
  if (!process.env.BENCH_CPU_PROFILE) return;
  if (!profiler) {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
  }
  await profiler.post("Profiler.start");
}

async function stopProfile(scenario: string): Promise<string | null> {
  if (!profiler) return null;
  const { profile } = await profiler.post("Profiler.stop");
  const file = `${process.env.BENCH_CPU_PROFILE}/${process.argv[2]}-${scenario.replace(/[^A-Za-z0-9]+/g, "-")}-${Date.now()}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

async function main(): Promise<void> {
  const [kind, uri, dbName, publicKeyPem] = process.argv.slice(2);
  let port: number;
  if (kind === "governed") {
    const config = loadConfig({
      // One token drives the whole load: the bench measures the gateway, not its per-principal limiter (set it to measure that).
      MEMGATE_RATE_LIMIT_PER_S: "0",
      ...process.env,
      MONGODB_URI: monitored(uri),
      MEMGATE_DB_NAME: dbName,
      JWT_PUBLIC_KEY: publicKeyPem,
      JWT_ISSUER: "memgate-bench",
      PORT: "0",
      LOG_LEVEL: "error",
    });
    const gateway = await Gateway.start({ config });
    idle = async () => {
      await gateway.services.contracts.governed.store.idle();
      await gateway.services.events.settled();
    };
    monitor(gateway.db.client);
    diagnose = () => {
      const store = gateway.services.contracts.governed.store as unknown as Record<string, Record<string, unknown>>;
      const queues = (o: Record<string, unknown> | undefined) =>
        Object.fromEntries(
          Object.entries(o ?? {})
            .filter(([, v]) => v && typeof v === "object" && ("queue" in v || "inFlight" in v))
            .map(([k, v]) => [
              k,
              {
                queue: ((v as { queue?: unknown[] }).queue ?? []).length,
                inFlight: (v as { inFlight?: unknown }).inFlight,
                running: Boolean((v as { running?: unknown }).running),
                flushing: (v as { flushing?: unknown }).flushing,
              },
            ]),
        );
      return { store: queues(store), due: queues(store.due), counters: queues(store.counters), slots: queues(store.slots), settings: queues(store.settings) };
    };
    watch((gateway as unknown as { http: { httpServer: http.Server } }).http.httpServer);
    await gateway.services.contracts.governed.store.settings.ready();
    port = gateway.port;
  } else {
    port = await bareServer(kind as "constant" | "raw", uri, dbName);
  }
  process.on("message", (message: string | { profile: string }) => {
    const failed = (error: unknown) => console.error(error);
    if (message === "profile-start") startProfile().then(() => process.send?.({ profiling: true }), failed);
    if (typeof message === "object" && "profile" in message) stopProfile(message.profile).then((file) => process.send?.({ profile: file }), failed);
    if (message === "commands") process.send?.({ commands, requests, inFlight, byKind: Object.fromEntries(byKind), msByKind: Object.fromEntries(timeByKind) });
    // Off-path work left by earlier requests (settle marks, counters, chain heads) is done before a scenario starts.
    if (message === "idle") idle().then(() => process.send?.({ idle: true }), failed);
    if (message === "diagnose")
      process.stderr.write(`bench-server ${kind}: ${JSON.stringify({ inFlight, requests, resources: process.getActiveResourcesInfo(), ...diagnose() })}\n`);
  });
  process.send?.({ port });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-server: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

/**
 * One server of the benchmark, run as a child process so that it has the machine to
 * itself while autocannon loads it from the parent:
 *   constant  bare Apollo + type-graphql answering a constant (the GraphQL ceiling)
 *   raw       bare Apollo + type-graphql doing the same _id lookup / two inserts with the raw driver
 *   governed  the real memgate gateway
 */
import "reflect-metadata";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ApolloServer } from "@apollo/server";
import { expressMiddleware } from "@as-integrations/express5";
import express from "express";
import { MongoClient, type Db } from "mongodb";
import { Arg, Field, ID, Mutation, ObjectType, Query, Resolver, buildSchema } from "type-graphql";
import { loadConfig } from "../src/config";
import { Gateway } from "../src/gateway";

@ObjectType()
class RawMemory {
  @Field(() => ID) memoryId!: string;
  @Field() key!: string;
  @Field() value!: string;
}

let db: Db;

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
    const doc = await db.collection<{ _id: string; memory_id: string; key: string; value: string }>("memories").findOne({ _id: id });
    return doc && { memoryId: doc.memory_id, key: doc.key, value: doc.value };
  }

  @Mutation(() => RawMemory)
  async rawStore(@Arg("key") key: string, @Arg("value") value: string): Promise<RawMemory> {
    const memoryId = randomUUID();
    await db.collection<{ _id: string } & Record<string, unknown>>("raw_memories").insertOne({ _id: memoryId, memory_id: memoryId, key, value, created_at: new Date() });
    await db.collection<{ _id: string } & Record<string, unknown>>("raw_events").insertOne({ _id: randomUUID(), memory_id: memoryId, type: "create", at: new Date() });
    return { memoryId, key, value };
  }
}

async function bareServer(kind: "constant" | "raw", uri: string, dbName: string): Promise<number> {
  if (kind === "raw") db = (await MongoClient.connect(uri, { maxPoolSize: 50 })).db(dbName);
  const schema = await buildSchema({ resolvers: kind === "constant" ? [ConstantResolver] : [RawResolver], validate: false });
  const apollo = new ApolloServer({ schema });
  await apollo.start();
  const app = express();
  app.use("/graphql", express.json(), expressMiddleware(apollo));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function main(): Promise<void> {
  const [kind, uri, dbName, publicKeyPem] = process.argv.slice(2);
  let port: number;
  if (kind === "governed") {
    const config = loadConfig({
      ...process.env,
      MONGODB_URI: uri,
      MEMGATE_DB_NAME: dbName,
      JWT_PUBLIC_KEY: publicKeyPem,
      JWT_ISSUER: "memgate-bench",
      PORT: "0",
      LOG_LEVEL: "error",
    });
    port = (await Gateway.start({ config })).port;
  } else {
    port = await bareServer(kind as "constant" | "raw", uri, dbName);
  }
  process.send?.({ port });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-server: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

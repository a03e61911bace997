import { loadConfig } from "./config";
import { Gateway } from "./gateway";
import { createLogger } from "./logger";

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const gateway = await Gateway.start({ config, logger });
  logger.info({ url: `${gateway.url}/graphql`, policy: gateway.services.policy.hash ?? "not loaded" }, "memgate is listening");
  if (!config.mongodbUri && !config.jwt.publicKeyPem && !config.jwt.jwksUrl) {
    process.stderr.write(
      `\nmemgate is up at ${gateway.url}/graphql (embedded database).\n` +
        `Get a development token:  npm run token -- --tenant acme --subject alice --role agent\n\n`,
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping: draining requests");
    const force = setTimeout(() => {
      logger.error("drain took too long; exiting");
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    gateway.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "error while stopping");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  process.stderr.write(`memgate failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

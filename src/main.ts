import { loadConfig } from "./config";
import { Gateway } from "./gateway";
import { createLogger } from "./logger";

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Signals are handled from the first moment: one that arrives while the gateway starts stops it
  // as soon as it is up (the default action would leave the embedded database running).
  const running: { gateway?: Gateway } = {};
  let requested: string | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    requested ??= signal;
    const gateway = running.gateway;
    if (!gateway || stopping) return;
    stopping = true;
    logger.info({ signal: requested }, "stopping: draining requests");
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
  const gateway = (running.gateway = await Gateway.start({ config, logger }));
  if (requested) return stop(requested);
  logger.info({ url: `${gateway.url}/graphql`, policy: gateway.services.policy.hash ?? "not loaded" }, "memgate is listening");
  if (!config.mongodbUri && !config.jwt.publicKeyPem && !config.jwt.jwksUrl) {
    process.stderr.write(
      `\nmemgate is up at ${gateway.url}/graphql (embedded database).\n` +
        `Get a development token:  npm run token -- --tenant acme --subject alice --role agent\n\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`memgate failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

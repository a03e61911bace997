// The layers, as `npm run lint` enforces them (issue 23 item 3). The request path is
// doors (src/http, src/graphql, src/mcp) -> kernel (src/kernel) -> a contract's declared
// operation (src/contracts) -> store (src/store); background jobs (src/jobs) sit beside the
// doors and write through the kernel's write set for jobs (Kernel.job).
//
// Import direction: the kernel is the core. It owns its ports (src/kernel/ports.ts and the
// interfaces beside it) and imports no contract, door, job or store *value*; contracts
// declare their operations with the kernel's API (so they import the kernel) and keep their
// objects in the store; the store imports nothing above it. Type-only imports are seen
// (tsPreCompilationDeps: true) and allowed between the kernel and the store only: they are
// erased at build, so no store module is loaded by the kernel, or the other way round, at
// run time; they name the log's record shapes and the ports the store implements.
/** @type {import('dependency-cruiser').IConfiguration} */
const DOORS = "^src/(http|graphql|mcp)/";
// The GraphQL adapters that live in a contract's folder (its resolvers and input types) are door code.
const CONTRACT_ADAPTERS = "^src/contracts/[^/]+/(resolvers|reaudit-resolvers|types)\\.ts$";

module.exports = {
  forbidden: [
    {
      name: "kernel-not-above",
      comment: "The kernel knows no door, job or contract: contracts plug into it through the Operation it declares.",
      severity: "error",
      from: { path: "^src/kernel/" },
      to: { path: ["^src/(http|graphql|mcp|jobs|contracts)/", "^src/(gateway|main|services)\\.ts$"] },
    },
    {
      name: "kernel-store-through-ports",
      comment:
        "The kernel reaches the store through its ports (src/kernel/ports.ts), plugged in by src/gateway.ts: type-only imports of the store's record shapes at most.",
      severity: "error",
      from: { path: "^src/kernel/" },
      to: { path: "^src/store/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "store-not-above",
      comment: "The store is the bottom layer: it imports no door, job, contract or kernel value (a port it implements may be named, type-only).",
      severity: "error",
      from: { path: "^src/store/" },
      to: {
        path: ["^src/(http|graphql|mcp|jobs|contracts|auth|policy|detectors)/", "^src/(gateway|main|services)\\.ts$"],
      },
    },
    {
      name: "store-names-kernel-ports-only-as-types",
      comment: "A store implements a kernel port; it may name it, type-only.",
      severity: "error",
      from: { path: "^src/store/" },
      to: { path: "^src/kernel/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "contracts-not-above",
      comment: "A contract's operations and stores know no door and no job (its GraphQL adapters are door code).",
      severity: "error",
      from: { path: "^src/contracts/", pathNot: CONTRACT_ADAPTERS },
      to: { path: ["^src/(http|graphql|mcp|jobs)/", "^src/(gateway|main|services)\\.ts$"] },
    },
    {
      name: "jobs-not-doors",
      comment: "Background jobs run beside the doors: they use the kernel, the contracts' ports and the store, never a door.",
      severity: "error",
      from: { path: "^src/jobs/" },
      to: { path: [DOORS, "^src/contracts/", "^src/(gateway|main)\\.ts$"] },
    },
    {
      name: "no-door-to-door",
      comment:
        "No door imports another door: what two doors share belongs below them (auth, kernel). The HTTP transport serves GraphQL (src/http/server.ts, limits.ts shape its errors), and MCP runs behind the same admission control (types only).",
      severity: "error",
      from: { path: "^src/(http|graphql|mcp)/", pathNot: ["^src/http/(server|limits)\\.ts$", "^src/mcp/route\\.ts$"] },
      to: { path: DOORS, pathNot: "^src/$1/" },
    },
    {
      name: "http-transport-meets-graphql-only-there",
      comment: "The HTTP transport serves GraphQL: src/http/server.ts and limits.ts shape its errors and build its context, and meet no other door.",
      severity: "error",
      from: { path: "^src/http/(server|limits)\\.ts$" },
      to: { path: DOORS, pathNot: ["^src/http/", "^src/graphql/(errors|context)\\.ts$"] },
    },
    {
      name: "mcp-route-meets-http-admission-only",
      comment: "The MCP route runs behind the HTTP transport's admission control and rate limiter, and meets no other door.",
      severity: "error",
      from: { path: "^src/mcp/route\\.ts$" },
      to: { path: DOORS, pathNot: ["^src/mcp/", "^src/http/(admission|rate-limit)\\.ts$"] },
    },
    {
      name: "mcp-uses-http-admission-as-types",
      comment: "MCP names the HTTP transport's admission and rate limiter, type-only (they are built once in src/gateway.ts).",
      severity: "error",
      from: { path: "^src/mcp/" },
      to: { path: "^src/http/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "only-composition-wires-doors",
      comment: "Doors are wired in the composition root (src/gateway.ts, src/main.ts), nowhere else.",
      severity: "error",
      from: { pathNot: ["^src/(gateway|main)\\.ts$", DOORS, CONTRACT_ADAPTERS, "^src/services\\.ts$"] },
      to: { path: DOORS },
    },
    {
      name: "no-circular",
      comment:
        "Modules in a cycle cannot be loaded one after the other. Type-only imports are erased at compile time, so a cycle closed only by them (services -> contracts -> resolvers -> context -> services) is no cycle at run time.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "memgate-source"] },
  },
};

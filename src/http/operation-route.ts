import express, { Router, type NextFunction, type Request, type Response } from "express";
import type { Principal } from "../auth/principal";
import type { TokenVerifier } from "../auth/token-verifier";
import type { DoorConfig } from "../config";
import type { ContractDefinition } from "../kernel/contract";
import { doorNames, projectOutput, snakeName, type OperationDeclaration } from "../kernel/declaration";
import type { Field, Fields } from "../kernel/fields";
import { IDEMPOTENCY_HEADER, IdempotencyKeyError, parseIdempotencyKey } from "../kernel/idempotency";
import type { Operation } from "../kernel/operation";
import { stampsOf, type Outcome } from "../kernel/outcome";
import type { Logger } from "../logger";
import type { Services } from "../services";
import type { Admission } from "./admission";
import { admit, authenticate, requireJson, waitAsideOf } from "./door-guards";
import { jsonDeeperThan } from "./limits";
import type { PrincipalRateLimiter } from "./rate-limit";

export interface OperationRouteDeps {
  verifier: TokenVerifier;
  services: Services;
  logger: Logger;
  door: Pick<DoorConfig, "bodyLimitBytes" | "jsonMaxDepth">;
  rateLimiter: PrincipalRateLimiter;
  admission: Admission;
}

/** A snake_case JSON body as the operation's request, under its declared names; undeclared fields are the door's unknown fields. */
export function requestOf(fields: Fields, body: unknown, at = ""): { request: Record<string, unknown>; unknown: string[] } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return { request: {}, unknown: [] };
  const source = body as Record<string, unknown>;
  const byDoorName = new Map(Object.entries(fields).map(([name, field]) => [snakeName(name), [name, field] as [string, Field]]));
  const request: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(source)) {
    const declared = byDoorName.get(key);
    if (!declared) {
      unknown.push(`${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      continue;
    }
    const [name, field] = declared;
    if (field.kind === "object" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const nested = requestOf(field.fields, value, `${at}/${key}`);
      request[name] = nested.request;
      unknown.push(...nested.unknown);
    } else request[name] = value;
  }
  return { request, unknown };
}

/**
 * POST /v1/operations/<contract>/<op> for every operation declared `derivedDoors` (the REST
 * door a new contract gets with no door code; OpenAPI describes each, scripts/emit-openapi.ts):
 * the body is the declaration's fields in snake_case, the answer the decision's stamps and, on
 * success, `value` (the declared output). Refusals are 200 answers with their stop reason; HTTP
 * errors are the transport's, as on POST /v1/memory. The body is never logged (SPEC D4).
 */
export function operationRouter(definitions: readonly ContractDefinition[], deps: OperationRouteDeps): Router {
  const router = Router();
  const { verifier, services, logger, door, rateLimiter, admission } = deps;
  for (const declaration of definitions.flatMap((d) => (d.declarations ?? []).filter((decl) => decl.derivedDoors))) {
    router.post(
      doorNames(declaration).path,
      requireJson("Content-Type must be application/json"),
      authenticate(verifier, rateLimiter, logger),
      admit(admission, () => (declaration.kind === "read" ? "read" : "write")),
      express.json({ limit: door.bodyLimitBytes, strict: false }),
      async (req: Request, res: Response, next: NextFunction) => {
        try {
          const op = operationOf(services, declaration);
          const principal = res.locals.principal as Principal;
          // Too deep to hand on: the policy answers SCHEMA_INVALID at the root, with its refuse event (as on POST /v1/memory).
          if (jsonDeeperThan(req.body, door.jsonMaxDepth)) {
            const refused = await services.kernel.run(
              op,
              principal,
              {},
              { requestId: req.requestId, refused: { reason: "too_deep", limit: door.jsonMaxDepth } },
            );
            res.status(400).json(answerOf(declaration, refused));
            return;
          }
          const idempotencyKey = parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER]);
          const { request, unknown } = requestOf(declaration.fields, req.body);
          const outcome = await services.kernel.run(op, principal, request, {
            requestId: req.requestId,
            idempotencyKey,
            waitAside: waitAsideOf(res),
            ...(unknown.length ? { unknownFields: unknown } : {}),
          });
          res.json(answerOf(declaration, outcome));
        } catch (error) {
          if (error instanceof IdempotencyKeyError) {
            res.status(400).json({ errors: [{ message: error.message, extensions: { code: "BAD_USER_INPUT", reason: error.code } }] });
            return;
          }
          logger.error({ err: error, requestId: req.requestId }, "operation door failed");
          next(error);
        }
      },
    );
  }
  return router;
}

function operationOf(services: Services, declaration: OperationDeclaration): Operation<unknown, unknown, unknown> {
  const module = (services.contracts as unknown as Record<string, { operations: Record<string, unknown> } | undefined>)[declaration.contract];
  const op = Object.values(module?.operations ?? {}).find((o) => (o as OperationDeclaration | null)?.name === declaration.name);
  if (!op) throw new Error(`memgate: no operation ${declaration.contract} ${declaration.name} is built`);
  return op as Operation<unknown, unknown, unknown>;
}

/** The decision's stamps and the declared output (snake_case), as the OpenAPI document describes it. */
export function answerOf(declaration: OperationDeclaration, outcome: Outcome<unknown>): Record<string, unknown> {
  const value = declaration.output ? projectOutput(declaration.output, outcome.value) : undefined;
  return { ...stampsOf(outcome), ...(declaration.output ? { value: value && snakeObject(declaration.output, value) } : {}) };
}

function snakeObject(fields: Fields, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const v = value[name];
    out[snakeName(name)] = field.kind === "object" && v && typeof v === "object" ? snakeObject(field.fields, v as Record<string, unknown>) : v;
  }
  return out;
}

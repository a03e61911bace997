import { Router } from "express";
import openApiDocument from "../../schema/openapi.json";

export const OPENAPI_PATH = "/v1/openapi.json";

/**
 * GET /v1/openapi.json: the OpenAPI 3.1 description of POST /v1/memory, as checked in
 * (schema/openapi.json, written by `npm run openapi:emit` from the seed's JSON Schemas;
 * imported, so the build carries it as it carries the seed schemas). Public, like any API description.
 */
export function openApiRouter(): Router {
  const body = JSON.stringify(openApiDocument);
  const router = Router();
  router.get(OPENAPI_PATH, (_req, res) => {
    res.type("application/json").set("Access-Control-Allow-Origin", "*").send(body);
  });
  return router;
}

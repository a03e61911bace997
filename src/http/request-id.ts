import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

declare module "express-serve-static-core" {
  interface Request {
    requestId: string;
  }
}

const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's X-Request-Id when it is a sane token, else makes one; echoes it back. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.header("x-request-id");
  req.requestId = given && ACCEPTED.test(given) ? given : randomUUID();
  res.setHeader("x-request-id", req.requestId);
  next();
}

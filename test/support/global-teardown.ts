import type { EmbeddedFerretDb } from "../../src/store/embedded-ferretdb";

export default async function globalTeardown(): Promise<void> {
  await ((globalThis as Record<string, unknown>).__memgateFerretDb as EmbeddedFerretDb | undefined)?.stop();
}

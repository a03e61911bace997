// Module hook: the conformance package's `fs` import resolves to ./node20-fs.mjs; everything else is untouched.
const shim = new URL("./node20-fs.mjs", import.meta.url).href;
export async function resolve(specifier, context, next) {
  const fromConformance = context.parentURL?.includes("/@modelcontextprotocol/conformance/") ?? false;
  if (fromConformance && (specifier === "fs" || specifier === "node:fs")) return { url: shim, shortCircuit: true };
  return next(specifier, context);
}

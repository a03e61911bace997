import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { alive } from "../support/processes";

const ROOT = path.resolve(__dirname, "..", "..");

/** The pid of the process running `command` among the descendants of `ancestor`. */
function descendant(ancestor: number, command: string): number | undefined {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const family = new Set([ancestor]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (family.has(row.ppid) && !family.has(row.pid)) {
        family.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.find((row) => family.has(row.pid) && row.args.includes(command))?.pid;
}

describe("npm start under a process manager (issue 12 item 4)", () => {
  it("SIGTERM to `npm start` (not only to node) stops the gateway and its embedded database", async () => {
    // The real start script's last step, run by a real npm (the build steps before it are npm test's own).
    const start = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
    const serve = start.split("&&").pop()!.trim();
    expect(serve).toBe("exec node --no-regexp-tier-up dist/src/main.js");
    const project = mkdtempSync(path.join(os.tmpdir(), "memgate-start-"));
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "start-probe", private: true, scripts: { start: `cd '${ROOT}' && ${serve}` } }));

    const npm = spawn("npm", ["start"], {
      cwd: project,
      env: {
        ...process.env,
        NODE_ENV: "development",
        MONGODB_URI: "",
        MEMGATE_DATA_DIR: path.join(project, "data"),
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    let output = "";
    const ferretPid = await new Promise<number>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const pid = /"pid":(\d+)[^\n]*embedded FerretDB started/.exec(output);
        if (pid && output.includes("memgate is listening")) resolve(Number(pid[1]));
      };
      npm.stdout.on("data", read);
      npm.stderr.on("data", read);
      exited.then(() => reject(new Error(`npm start exited early:\n${output}`)), reject);
    });
    const gatewayPid = descendant(npm.pid!, "dist/src/main.js")!;
    expect(gatewayPid).toBeGreaterThan(0);
    expect([alive(gatewayPid), alive(ferretPid)]).toEqual([true, true]);

    npm.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain('"signal":"SIGTERM"');
    expect([alive(gatewayPid), alive(ferretPid)]).toEqual([false, false]);
  });
});

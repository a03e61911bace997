import { loadConfig } from "../../src/config";
import { DocumentLimitError } from "../../src/graphql/errors";
import { tokenLimitCheck } from "../../src/http/limits";

/** The HTTP door's token bound remembers only documents it found within the bound (src/http/limits.ts). */
describe("issue 12 item 1: the token bound on documents sent again", () => {
  const limits = { ...loadConfig({}).door.document, maxTokens: 25 };
  const within = "query Read($id: ID!) { memory(memoryId: $id) { stopReason } }";
  const over = `{ ${"__typename ".repeat(30)}}`;

  it("refuses a document over the bound every time it is sent, whatever was accepted before", () => {
    const check = tokenLimitCheck(limits);
    check(within);
    for (let i = 0; i < 3; i++) expect(() => check(over)).toThrow(DocumentLimitError);
    check(within);
  });

  it("leaves other syntax errors to the parser that follows, and does not remember them", () => {
    const check = tokenLimitCheck(limits);
    expect(() => check("{ unclosed")).not.toThrow();
    // Completed to a document over the bound, it is refused.
    expect(() => check(`{ unclosed ${"x ".repeat(30)}}`)).toThrow(DocumentLimitError);
  });
});

import { render } from "preact";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, LedgerApi, describeToken, explain, type LedgerItem, type Proposal, type SelectedContext, type Source } from "./api";

const TOKEN_KEY = "memgate.ledger.token";

const KIND_LABELS: Record<string, string> = {
  PREFERENCE: "Preference",
  CONSTRAINT: "Constraint",
  GOAL: "Goal",
  SELF_OBSERVATION: "Something you noticed",
};

const SOURCE_LABELS: Record<string, string> = {
  phase3_reflection: "a reflection",
  phase5_3_interpretation: "an interpretation",
};

function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  return <time dateTime={iso}>{date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}</time>;
}

function Provenance({ source }: { source: Source }) {
  return (
    <>
      from {SOURCE_LABELS[source.sourceType] ?? source.sourceType}
      {source.sourceId ? (
        <>
          {" "}
          (<code>{source.sourceId}</code>)
        </>
      ) : null}
      {source.note ? <> · “{source.note}”</> : null}
    </>
  );
}

type Status = { kind: "info" | "error"; text: string } | null;

function SignIn({ onSignIn, error }: { onSignIn: (token: string) => void; error: string | null }) {
  const [token, setToken] = useState("");
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <main id="main" class="card">
      <h1>Your memory ledger</h1>
      <p>
        This page shows what assistants have asked to remember about you. Nothing is kept until you approve it, in your own words, and you can forget anything
        at any time.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim()) onSignIn(token.trim());
        }}
      >
        <label for="token">Access token</label>
        <textarea
          id="token"
          ref={field}
          rows={3}
          autoComplete="off"
          spellcheck={false}
          value={token}
          aria-describedby={error ? "token-error token-hint" : "token-hint"}
          aria-invalid={error ? true : undefined}
          onInput={(event) => setToken((event.target as HTMLTextAreaElement).value)}
        />
        <p id="token-hint" class="hint">
          Paste the token your app gave you. It stays in this browser tab only.
        </p>
        {error ? (
          <p id="token-error" class="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </main>
  );
}

function ProposalCard({
  proposal,
  busy,
  onApprove,
  onDecline,
  refusal,
}: {
  proposal: Proposal;
  busy: boolean;
  onApprove: (text: string) => void;
  onDecline: () => void;
  refusal: string | null;
}) {
  const [text, setText] = useState(proposal.proposedText);
  const id = `proposal-${proposal.proposalId}`;
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (refusal) field.current?.focus();
  }, [refusal]);
  return (
    <li class="card proposal" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} class="kind">
        {KIND_LABELS[proposal.kind] ?? proposal.kind}
      </h3>
      <p class="meta">
        Suggested <When iso={proposal.createdAt} /> <Provenance source={proposal.source} />
      </p>
      <label for={`${id}-text`}>Wording to remember (edit it as you like)</label>
      <textarea
        id={`${id}-text`}
        ref={field}
        rows={3}
        value={text}
        aria-describedby={refusal ? `${id}-refusal` : undefined}
        aria-invalid={refusal ? true : undefined}
        onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
      />
      {refusal ? (
        <p id={`${id}-refusal`} class="error" role="alert">
          {refusal}
        </p>
      ) : null}
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={() => onApprove(text)}>
          Approve
        </button>
        <button type="button" disabled={busy} onClick={onDecline}>
          Decline
        </button>
      </div>
    </li>
  );
}

function LedgerEntry({
  item,
  selected,
  onToggle,
  onForget,
  busy,
}: {
  item: LedgerItem;
  selected: boolean;
  onToggle: (on: boolean) => void;
  onForget: () => void;
  busy: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const id = `item-${item.memoryId}`;
  const yes = useRef<HTMLButtonElement>(null);
  // Layout effect: focus lands before the question is painted. A disabled button cannot take
  // focus, so while another action is still busy the focus waits for it to end.
  useLayoutEffect(() => {
    if (confirming && !busy) yes.current?.focus();
  }, [confirming, busy]);
  return (
    <li class="card item">
      <div class="item-head">
        <input type="checkbox" id={`${id}-select`} checked={selected} onChange={(event) => onToggle((event.target as HTMLInputElement).checked)} />
        <label for={`${id}-select`} class="select-label">
          Use this item
        </label>
      </div>
      <p class="verbatim" id={`${id}-text`}>
        {item.text}
      </p>
      <p class="meta">
        {KIND_LABELS[item.kind] ?? item.kind} · approved <When iso={item.createdAt} /> · suggested <When iso={item.proposedAt} />{" "}
        <Provenance source={item.source} /> · proposal <code>{item.proposalId}</code>
      </p>
      <div class="actions">
        {confirming ? (
          <>
            <span id={`${id}-confirm`}>Forget this item? It will not be used again.</span>
            <button ref={yes} type="button" class="danger" disabled={busy} aria-describedby={`${id}-confirm`} onClick={onForget}>
              Yes, forget it
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" aria-describedby={`${id}-text`} onClick={() => setConfirming(true)}>
            Forget
          </button>
        )}
      </div>
    </li>
  );
}

function Ledger({ token, onSignOut }: { token: string; onSignOut: (error?: string) => void }) {
  const api = useRef(new LedgerApi(token)).current;
  const [proposals, setProposals] = useState<Proposal[] | null>(null);
  const [items, setItems] = useState<LedgerItem[] | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [context, setContext] = useState<SelectedContext | null>(null);
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const proposalsHeading = useRef<HTMLHeadingElement>(null);
  const ledgerHeading = useRef<HTMLHeadingElement>(null);
  const contextHeading = useRef<HTMLHeadingElement>(null);

  const fail = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.code === "UNAUTHENTICATED") return onSignOut(error.message);
      setStatus({ kind: "error", text: error instanceof Error ? error.message : String(error) });
    },
    [onSignOut],
  );

  const refresh = useCallback(async () => {
    try {
      const [pending, ledger] = await Promise.all([api.pending(), api.ledger()]);
      if (pending.stopReason !== "SUCCESS_LISTED" || ledger.stopReason !== "SUCCESS_LISTED") {
        setStatus({ kind: "error", text: `This token cannot open a ledger (${pending.stopReason}). Sign in with your own token.` });
      }
      setProposals(pending.proposals);
      setItems(ledger.items);
      setSelected((current) => new Set([...current].filter((id) => ledger.items.some((item) => item.memoryId === id))));
    } catch (error) {
      fail(error);
    }
  }, [api, fail]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  async function act<T>(work: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    try {
      return await work();
    } catch (error) {
      fail(error);
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  const approve = (proposal: Proposal, text: string) =>
    act(async () => {
      const decision = await api.approve(proposal.proposalId, text);
      if (decision.stopReason === "SUCCESS_STORED") {
        setRefusals(({ [proposal.proposalId]: _, ...rest }) => rest);
        setStatus({ kind: "info", text: "Approved. It is in your ledger exactly as you wrote it." });
        await refresh();
        ledgerHeading.current?.focus();
      } else {
        setRefusals((r) => ({ ...r, [proposal.proposalId]: explain(decision) }));
        setStatus({ kind: "error", text: "Not approved: see the note under the wording." });
        if (decision.stopReason === "NOT_FOUND") await refresh();
      }
    });

  const decline = (proposal: Proposal) =>
    act(async () => {
      const decision = await api.decline(proposal.proposalId);
      setStatus(decision.stopReason === "SUCCESS_DELETED" ? { kind: "info", text: "Declined. Nothing was kept." } : { kind: "error", text: explain(decision) });
      await refresh();
      proposalsHeading.current?.focus();
    });

  const forget = (item: LedgerItem) =>
    act(async () => {
      const decision = await api.forget(item.memoryId);
      setStatus(
        decision.stopReason === "SUCCESS_DELETED"
          ? { kind: "info", text: "Forgotten. It will not be listed or used again." }
          : { kind: "error", text: explain(decision) },
      );
      setContext(null);
      await refresh();
      ledgerHeading.current?.focus();
    });

  const showContext = () =>
    act(async () => {
      const ids = (items ?? []).filter((item) => selected.has(item.memoryId)).map((item) => item.memoryId);
      setContext(await api.context(ids));
      contextHeading.current?.focus();
    });

  const who = describeToken(token);
  return (
    <>
      <header class="bar">
        <p>
          Signed in
          {who ? (
            <>
              {" "}
              as <strong>{who}</strong>
            </>
          ) : null}
        </p>
        <button type="button" onClick={() => onSignOut()}>
          Sign out
        </button>
      </header>
      <main id="main">
        <h1>Your memory ledger</h1>
        <div class={`status ${status?.kind ?? ""}`} role="status" aria-live="polite">
          {status?.text ?? ""}
        </div>

        <section aria-labelledby="proposals-heading">
          <h2 id="proposals-heading" ref={proposalsHeading} tabIndex={-1}>
            Waiting for you {proposals ? <span class="count">({proposals.length})</span> : null}
          </h2>
          {proposals === null ? (
            <p class="loading">Loading…</p>
          ) : proposals.length === 0 ? (
            <p class="empty">Nothing is waiting for your approval.</p>
          ) : (
            <ul class="list">
              {proposals.map((proposal) => (
                <ProposalCard
                  key={proposal.proposalId}
                  proposal={proposal}
                  busy={busy}
                  refusal={refusals[proposal.proposalId] ?? null}
                  onApprove={(text) => void approve(proposal, text)}
                  onDecline={() => void decline(proposal)}
                />
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="ledger-heading">
          <h2 id="ledger-heading" ref={ledgerHeading} tabIndex={-1}>
            What is remembered {items ? <span class="count">({items.length})</span> : null}
          </h2>
          <p class="hint">Shown exactly as you approved it. Assistants use an item only when you select it.</p>
          {items === null ? (
            <p class="loading">Loading…</p>
          ) : items.length === 0 ? (
            <p class="empty">Nothing is remembered about you.</p>
          ) : (
            <ul class="list">
              {items.map((item) => (
                <LedgerEntry
                  key={item.memoryId}
                  item={item}
                  busy={busy}
                  selected={selected.has(item.memoryId)}
                  onToggle={(on) =>
                    setSelected((current) => {
                      const next = new Set(current);
                      if (on) next.add(item.memoryId);
                      else next.delete(item.memoryId);
                      return next;
                    })
                  }
                  onForget={() => void forget(item)}
                />
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="context-heading">
          <h2 id="context-heading" ref={contextHeading} tabIndex={-1}>
            What an assistant would get
          </h2>
          <p class="hint">
            {selected.size === 0
              ? "No items selected: an assistant gets no memory at all."
              : `${selected.size} item${selected.size === 1 ? "" : "s"} selected.`}
          </p>
          <button type="button" class="primary" disabled={busy} onClick={() => void showContext()}>
            Show context for selected items
          </button>
          {context ? (
            <div class="card context" aria-label="Context an assistant would get">
              {context.resolvedTexts.length === 0 ? (
                <p class="empty">Empty context: no memory is used.</p>
              ) : (
                <>
                  <p class="attribution">{context.attributionLine}</p>
                  <ul>
                    {context.resolvedTexts.map((text, i) => (
                      <li key={context.selectedMemoryIds[i]} class="verbatim">
                        {text}
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {context.stopReason === "NOT_FOUND" ? <p class="error">Some selected items are no longer available and were left out.</p> : null}
            </div>
          ) : null}
        </section>
      </main>
    </>
  );
}

function App() {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [error, setError] = useState<string | null>(null);
  if (!token) {
    return (
      <SignIn
        error={error}
        onSignIn={(value) => {
          sessionStorage.setItem(TOKEN_KEY, value);
          setError(null);
          setToken(value);
        }}
      />
    );
  }
  return (
    <Ledger
      key={token}
      token={token}
      onSignOut={(message) => {
        sessionStorage.removeItem(TOKEN_KEY);
        setError(message ?? null);
        setToken(null);
      }}
    />
  );
}

const root = document.getElementById("app")!;
root.textContent = ""; // drop the static "Loading…" placeholder: render() adds to what is there
render(<App />, root);

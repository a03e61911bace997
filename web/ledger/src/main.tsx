import { createContext, render } from "preact";
import { useCallback, useContext, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, LedgerApi, describeToken, type LedgerItem, type Proposal, type SelectedContext, type Source } from "./api";
import { groupProposals, type ProposalGroup } from "./group";
import { Words, loadLanguages, loadMessages, preferredLanguage, rememberLanguage, type Language } from "./i18n";
import { watchLedger } from "./live";
import {
  SignInError,
  beginSignIn,
  completeSignIn,
  developmentSignIn,
  endSession,
  expiryOf,
  loadSettings,
  refreshSession,
  saveSession,
  savedSession,
  type PageSettings,
  type Session,
} from "./auth";

/** A session is refreshed this long before its token expires... */
const REFRESH_BEFORE_MS = 5 * 60_000;
/** ...but never sooner than this after the last time: a short-lived token or a skewed clock must not make it spin. */
const REFRESH_GAP_MS = 30_000;

const WordsContext = createContext<Words>(null as unknown as Words);
const useWords = () => useContext(WordsContext);

function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  return <time dateTime={iso}>{date.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" })}</time>;
}

/** Where it came from, in words: the kind of moment and the note a person saw; never an internal id. */
function Provenance({ source }: { source: Source }) {
  const words = useWords();
  const from = words.source(source.sourceType);
  return (
    <>
      {from ? words.page("from_source", { source: from }) : null}
      {source.note ? <> · “{source.note}”</> : null}
    </>
  );
}

type Status = { kind: "info" | "error"; text: string } | null;

function LanguageSwitch({ languages, current, onChange }: { languages: Language[]; current: string; onChange: (code: string) => void }) {
  const words = useWords();
  return (
    <div class="language">
      <label for="language">{words.page("language")}</label>
      <select id="language" value={current} onChange={(event) => onChange((event.target as HTMLSelectElement).value)}>
        {languages.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function SignIn({ settings, onSession, error }: { settings: PageSettings; onSession: (session: Session) => void; error: string | null }) {
  const words = useWords();
  const [token, setToken] = useState("");
  const [tenant, setTenant] = useState("acme");
  const [subject, setSubject] = useState("alice");
  const [failure, setFailure] = useState<string | null>(null);
  const first = useRef<HTMLButtonElement & HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => first.current?.focus(), []);
  const shown = failure ?? error;
  const alert = shown ? (
    <p id="sign-in-error" class="error" role="alert">
      {shown}
    </p>
  ) : null;
  const fail = (e: unknown) => setFailure(words.status(e instanceof SignInError ? e.status : "sign_in_failed"));
  return (
    <main id="main" class="card">
      <h1>{words.page("title")}</h1>
      <p>{words.page("intro")}</p>
      {settings.oidc ? (
        <>
          {alert}
          <button type="button" class="primary" ref={first} onClick={() => void beginSignIn(settings.oidc!).catch(fail)}>
            {words.page("sign_in")}
          </button>
        </>
      ) : (
        <>
          {settings.development ? (
            <form
              class="dev-sign-in"
              onSubmit={(event) => {
                event.preventDefault();
                developmentSignIn(tenant.trim(), subject.trim()).then(onSession, fail);
              }}
            >
              <p class="notice" id="dev-notice">
                {words.page("dev_notice")}
              </p>
              <label for="dev-tenant">{words.page("dev_tenant")}</label>
              <input id="dev-tenant" ref={first} autoComplete="off" value={tenant} onInput={(e) => setTenant((e.target as HTMLInputElement).value)} />
              <label for="dev-subject">{words.page("dev_subject")}</label>
              <input id="dev-subject" autoComplete="off" value={subject} onInput={(e) => setSubject((e.target as HTMLInputElement).value)} />
              <button type="submit" class="primary" aria-describedby="dev-notice">
                {words.page("dev_sign_in")}
              </button>
            </form>
          ) : (
            <p class="hint">{words.page("no_sign_in")}</p>
          )}
          {alert}
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (token.trim()) onSession({ token: token.trim(), expiresAt: expiryOf(token.trim()), via: "token" });
            }}
          >
            <label for="token">{words.page("token_label")}</label>
            <textarea
              id="token"
              ref={settings.development ? undefined : first}
              rows={3}
              autoComplete="off"
              spellcheck={false}
              value={token}
              aria-describedby={shown ? "sign-in-error token-hint" : "token-hint"}
              aria-invalid={shown ? true : undefined}
              onInput={(event) => setToken((event.target as HTMLTextAreaElement).value)}
            />
            <p id="token-hint" class="hint">
              {words.page("token_hint")}
            </p>
            <button type="submit" class={settings.development ? "" : "primary"}>
              {words.page("sign_in")}
            </button>
          </form>
        </>
      )}
    </main>
  );
}

function ProposalCard({
  group,
  busy,
  onApprove,
  onDecline,
  refusal,
}: {
  group: ProposalGroup;
  busy: boolean;
  onApprove: (text: string) => void;
  onDecline: () => void;
  refusal: string | null;
}) {
  const words = useWords();
  const proposal = group.lead;
  const [text, setText] = useState(proposal.proposedText);
  // DOM ids only: never shown.
  const id = `proposal-${proposal.proposalId}`;
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (refusal) field.current?.focus();
  }, [refusal]);
  const count = group.members.length;
  return (
    <li class="card proposal" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} class="kind">
        {words.kind(proposal.kind)}
        {count > 1 ? <span class="count"> ×{count}</span> : null}
      </h3>
      <p class="meta">
        {count > 1 ? words.page("suggested_times", { count }) : words.page("suggested")} <When iso={proposal.createdAt} />{" "}
        <Provenance source={proposal.source} />
      </p>
      <label for={`${id}-text`}>{words.page("wording")}</label>
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
          {words.page("approve")}
        </button>
        <button type="button" disabled={busy} onClick={onDecline}>
          {words.page("decline")}
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
  const words = useWords();
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
          {words.page("use_item")}
        </label>
      </div>
      <p class="verbatim" id={`${id}-text`}>
        {item.text}
      </p>
      <p class="meta">
        {words.kind(item.kind)} · {words.page("approved_on")} <When iso={item.createdAt} /> · {words.page("suggested")} <When iso={item.proposedAt} />{" "}
        <Provenance source={item.source} />
      </p>
      <div class="actions">
        {confirming ? (
          <>
            <span id={`${id}-confirm`}>{words.page("forget_question")}</span>
            <button ref={yes} type="button" class="danger" disabled={busy} aria-describedby={`${id}-confirm`} onClick={onForget}>
              {words.page("forget_yes")}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {words.page("forget_keep")}
            </button>
          </>
        ) : (
          <button type="button" aria-describedby={`${id}-text`} onClick={() => setConfirming(true)}>
            {words.page("forget")}
          </button>
        )}
      </div>
    </li>
  );
}

function Ledger({
  token,
  via,
  onSignOut,
  header,
}: {
  token: () => string;
  via: Session["via"];
  onSignOut: (error?: string) => void;
  header: preact.ComponentChildren;
}) {
  const words = useWords();
  const currentToken = useRef(token);
  currentToken.current = token;
  const api = useRef(new LedgerApi(() => currentToken.current())).current;
  const [proposals, setProposals] = useState<Proposal[] | null>(null);
  const [items, setItems] = useState<LedgerItem[] | null>(null);
  /** The token was accepted but the policy would not open a ledger for it (not a person's token). */
  const [closed, setClosed] = useState(false);
  const [live, setLive] = useState<"connecting" | "on" | "lost">("connecting");
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
      if (error instanceof ApiError && error.code === "UNAUTHENTICATED") return onSignOut(words.status(via === "token" ? "token_refused" : "session_ended"));
      setStatus({ kind: "error", text: words.status(error instanceof ApiError ? error.status : "failed") });
    },
    [onSignOut, words, via],
  );

  const refresh = useCallback(async () => {
    try {
      const [pending, ledger] = await Promise.all([api.pending(), api.ledger()]);
      if (pending.stopReason !== "SUCCESS_LISTED" || ledger.stopReason !== "SUCCESS_LISTED") {
        setClosed(true);
        return;
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

  useEffect(() => {
    if (closed) return undefined;
    return watchLedger(
      () => currentToken.current(),
      (change) => {
        if (change === "listening") setLive("on");
        void refresh();
      },
      () => setLive("lost"),
    );
  }, [closed, refresh]);

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

  /** Approves the lead in the person's words; its identical twins are declined, so one item is kept (decided together). */
  const approve = (group: ProposalGroup, text: string) =>
    act(async () => {
      const proposal = group.lead;
      const decision = await api.approve(proposal.proposalId, text);
      if (decision.stopReason === "SUCCESS_STORED") {
        for (const twin of group.members.slice(1)) await api.decline(twin.proposalId);
        setRefusals(({ [proposal.proposalId]: _, ...rest }) => rest);
        setStatus({ kind: "info", text: words.status("approved") });
        await refresh();
        ledgerHeading.current?.focus();
      } else {
        setRefusals((r) => ({ ...r, [proposal.proposalId]: words.refusal(decision) }));
        setStatus({ kind: "error", text: words.status("not_approved") });
        if (decision.stopReason === "NOT_FOUND") await refresh();
      }
    });

  const decline = (group: ProposalGroup) =>
    act(async () => {
      let refused: { stopReason: string; explanations: string[] } | null = null;
      for (const member of group.members) {
        const decision = await api.decline(member.proposalId);
        if (decision.stopReason !== "SUCCESS_DELETED") refused ??= decision;
      }
      setStatus(refused ? { kind: "error", text: words.refusal(refused) } : { kind: "info", text: words.status("declined") });
      await refresh();
      proposalsHeading.current?.focus();
    });

  const forget = (item: LedgerItem) =>
    act(async () => {
      const decision = await api.forget(item.memoryId);
      setStatus(
        decision.stopReason === "SUCCESS_DELETED" ? { kind: "info", text: words.status("forgotten") } : { kind: "error", text: words.refusal(decision) },
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

  const who = describeToken(token());
  const groups = proposals ? groupProposals(proposals) : null;
  return (
    <>
      <header class="bar">
        <p>{who ? words.page("signed_in_as", { who }) : words.page("signed_in")}</p>
        {header}
        <button type="button" onClick={() => onSignOut()}>
          {words.page("sign_out")}
        </button>
      </header>
      <main id="main">
        <h1>{words.page("title")}</h1>
        <div class={`status ${closed ? "error" : (status?.kind ?? "")}`} role="status" aria-live="polite">
          {closed ? words.status("cannot_open") : (status?.text ?? "")}
        </div>
        {closed ? null : (
          <>
            <p class={`hint live ${live}`} data-live={live}>
              {live === "lost" ? words.page("live_lost") : live === "on" ? words.page("live") : ""}
            </p>
            <section aria-labelledby="proposals-heading">
              <h2 id="proposals-heading" ref={proposalsHeading} tabIndex={-1}>
                {words.page("waiting")} {groups ? <span class="count">({groups.length})</span> : null}
              </h2>
              {groups === null ? (
                <p class="loading">{words.page("loading")}</p>
              ) : groups.length === 0 ? (
                <p class="empty">{words.page("nothing_waiting")}</p>
              ) : (
                <ul class="list">
                  {groups.map((group) => (
                    <ProposalCard
                      key={group.lead.proposalId}
                      group={group}
                      busy={busy}
                      refusal={refusals[group.lead.proposalId] ?? null}
                      onApprove={(text) => void approve(group, text)}
                      onDecline={() => void decline(group)}
                    />
                  ))}
                </ul>
              )}
            </section>

            <section aria-labelledby="ledger-heading">
              <h2 id="ledger-heading" ref={ledgerHeading} tabIndex={-1}>
                {words.page("remembered")} {items ? <span class="count">({items.length})</span> : null}
              </h2>
              <p class="hint">{words.page("verbatim_hint")}</p>
              {items === null ? (
                <p class="loading">{words.page("loading")}</p>
              ) : items.length === 0 ? (
                <p class="empty">{words.page("nothing_remembered")}</p>
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
                {words.page("context_heading")}
              </h2>
              <p class="hint">
                {selected.size === 0
                  ? words.page("context_none_selected")
                  : selected.size === 1
                    ? words.page("context_one_selected")
                    : words.page("context_many_selected", { count: selected.size })}
              </p>
              <button type="button" class="primary" disabled={busy} onClick={() => void showContext()}>
                {words.page("context_show")}
              </button>
              {context ? (
                <div class="card context" aria-label={words.page("context_label")}>
                  {context.resolvedTexts.length === 0 ? (
                    <p class="empty">{words.page("context_empty")}</p>
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
                  {context.stopReason === "NOT_FOUND" ? <p class="error">{words.page("context_partial")}</p> : null}
                </div>
              ) : null}
            </section>
          </>
        )}
      </main>
    </>
  );
}

function App({
  languages,
  initial,
  settings,
  start,
}: {
  languages: Language[];
  initial: { code: string; words: Words };
  settings: PageSettings;
  start: { session: Session | null; error: string | null };
}) {
  const [language, setLanguage] = useState(initial);
  const [session, setSessionState] = useState<Session | null>(start.session);
  // Kept in sessionStorage at once, not in an effect after the next paint: a reload right after a
  // sign-in or a renewal must find the session it just showed.
  const setSession = (value: Session | null) => {
    saveSession(value);
    setSessionState(value);
  };
  /** Changes at each sign-in, not at a refresh: the ledger stays as it is while its token is renewed. */
  const [signIn, setSignIn] = useState(0);
  const [error, setError] = useState<string | null>(start.error ? initial.words.status(start.error) : null);
  const current = useRef(session);
  current.current = session;
  useEffect(() => {
    document.documentElement.lang = language.code;
    document.title = language.words.page("title");
    const skip = document.querySelector(".skip");
    if (skip) skip.textContent = language.words.page("skip");
  }, [language]);
  // Renews an OpenID session before its token expires; a failed renewal ends it. The timer is set
  // once per session (not again when the language changes, which would push the renewal back).
  const words = useRef(language.words);
  words.current = language.words;
  useEffect(() => {
    if (!session || session.via !== "oidc" || !session.refreshToken || !settings.oidc) return undefined;
    const timer = setTimeout(
      () => {
        // A renewal that answers after the person signed out (or signed in anew) changes nothing:
        // it must never bring an ended session back.
        refreshSession(settings.oidc!, session).then(
          (renewed) => {
            if (current.current === session) setSession(renewed);
          },
          () => {
            if (current.current !== session) return;
            setError(words.current.status("session_ended"));
            setSession(null);
          },
        );
      },
      Math.max(REFRESH_GAP_MS, session.expiresAt - Date.now() - REFRESH_BEFORE_MS),
    );
    return () => clearTimeout(timer);
  }, [session, settings]);
  const switchTo = (code: string) => {
    rememberLanguage(code);
    void loadMessages(code).then((messages) => setLanguage({ code, words: new Words(messages) }));
  };
  const languageSwitch = <LanguageSwitch languages={languages} current={language.code} onChange={switchTo} />;
  const signOut = (message?: string) => {
    const ending = current.current;
    setError(message ?? null);
    setSession(null);
    // Signing out also ends the provider's session (when it offers that); an expired one just ends here.
    if (!message && ending?.via === "oidc" && settings.oidc) void endSession(settings.oidc, ending);
  };
  return (
    <WordsContext.Provider value={language.words}>
      {!session ? (
        <>
          <header class="bar">{languageSwitch}</header>
          <SignIn
            settings={settings}
            error={error}
            onSession={(value) => {
              setError(null);
              setSignIn((n) => n + 1);
              setSession(value);
            }}
          />
        </>
      ) : (
        <Ledger key={signIn} token={() => current.current?.token ?? ""} via={session.via} header={languageSwitch} onSignOut={signOut} />
      )}
    </WordsContext.Provider>
  );
}

async function start(): Promise<void> {
  const root = document.getElementById("app")!;
  const [languages, settings] = await Promise.all([loadLanguages(), loadSettings()]);
  const code = preferredLanguage(languages);
  const words = new Words(await loadMessages(code));
  let session = savedSession();
  let error: string | null = null;
  if (settings.oidc) {
    try {
      const returned = await completeSignIn(settings.oidc);
      if (returned) {
        saveSession(returned); // before the first render: a reload at once finds it
        session = returned;
      }
    } catch (e) {
      error = e instanceof SignInError ? e.status : "sign_in_failed";
    }
  }
  root.textContent = ""; // drop the static "Loading…" placeholder: render() adds to what is there
  render(<App languages={languages} initial={{ code, words }} settings={settings} start={{ session, error }} />, root);
}

void start();

// Add from Prometheus…: the form for series from a Prometheus-compatible API (the command line's
// --prometheus). The page asks before it first contacts a host (as a #src= link does), and says
// that the server must allow this page's origin. A token or password is held in this component's
// state only: never in a link, the saved session, storage or a log.
import { memo, useState } from "react";
import { defaultStep, parseStep, parseTime, publicAddress } from "../../core/prometheus-args";
import type { PrometheusAuth, PrometheusRequest } from "../../engine/prometheus-query";
import { agreeTo, isAgreed } from "../state/net-frames";

const isoNow = (offsetS = 0) => new Date(Math.floor(Date.now() / 1000 + offsetS) * 1000).toISOString().replace(".000Z", "Z");

export interface PrometheusForm {
  url: string;
  query: string;
  start: string;
  end: string;
  step: string;
}

/** The request a form makes, or why it makes none. */
export function requestOfForm(f: PrometheusForm): PrometheusRequest | string {
  let u: URL;
  try {
    u = new URL(f.url.trim());
  } catch {
    return "The address is not one: write it as http://host:9090 (the part before /api/v1/).";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "Only http and https addresses are asked.";
  if (u.username || u.password) return "Put a password in the token or password field, not in the address (an address may be shown or shared).";
  if (!f.query.trim()) return "Write a query: a native histogram's name (or sum/increase of it), or name_bucket of a classic one.";
  const start = parseTime(f.start);
  const end = parseTime(f.end);
  if (start === null || end === null) return "Start and end are RFC 3339 times (2026-01-02T15:04:05Z) or epoch seconds.";
  if (end < start) return "The end is before the start.";
  let step: number | null = null;
  if (f.step.trim()) {
    step = parseStep(f.step);
    if (step === null) return "The step is a duration (15s, 1m) or seconds.";
  }
  return { url: f.url.trim(), query: f.query.trim(), start, end, step };
}

export const PrometheusPanel = memo(function PrometheusPanel({ onLoad }: { onLoad: (request: PrometheusRequest, auth: PrometheusAuth) => void }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<PrometheusForm>(() => ({ url: "http://localhost:9090", query: "", start: isoNow(-3600), end: isoNow(), step: "" }));
  const [token, setToken] = useState("");
  const [user, setUser] = useState("");
  const [error, setError] = useState<string | null>(null);
  /** The host asked about before the first request to it. */
  const [asking, setAsking] = useState<{ host: string; request: PrometheusRequest } | null>(null);
  const origin = typeof window === "undefined" ? "" : window.location.origin;

  const auth = (): PrometheusAuth => (token ? (user ? { username: user, password: token } : { bearerToken: token }) : {});
  const submit = () => {
    const r = requestOfForm(form);
    if (typeof r === "string") return setError(r);
    setError(null);
    const u = new URL(r.url);
    if (u.origin !== origin && !isAgreed(r.url)) return setAsking({ host: u.host, request: r });
    onLoad(r, auth());
  };
  const field = (k: keyof PrometheusForm, testid: string, label: string, hint: string, wide = false) => (
    <label className="prometheus-field">
      <span>{label}</span>
      <input
        data-testid={testid}
        value={form[k]}
        placeholder={hint}
        size={wide ? 40 : 22}
        onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.value }))}
        spellCheck={false}
        autoComplete="off"
      />
    </label>
  );
  const r = requestOfForm(form);
  const stepShown = typeof r === "string" ? null : (r.step ?? defaultStep(r.start, r.end));

  if (!open)
    return (
      <button type="button" data-testid="prometheus-open" className="prometheus-open" onClick={() => setOpen(true)}>
        Add from Prometheus…
      </button>
    );
  return (
    <section className="prometheus" aria-label="Add from Prometheus" data-testid="prometheus-form">
      <h3>Add from Prometheus</h3>
      <p className="hint">
        Series from a Prometheus-compatible API (Prometheus, Thanos, Mimir, VictoriaMetrics): one per result, one interval per step, what was observed in the range. Your browser
        asks the server directly, so it must allow this page&apos;s origin (Prometheus: <code>--web.cors.origin=&apos;{origin}&apos;</code>).
      </p>
      {field("url", "prometheus-url", "Address", "http://host:9090", true)}
      {field("query", "prometheus-query", "Query", "http_request_duration_seconds or sum(x_seconds)", true)}
      {field("start", "prometheus-start", "Start", "RFC 3339 or epoch seconds")}
      {field("end", "prometheus-end", "End", "RFC 3339 or epoch seconds")}
      {field("step", "prometheus-step", "Step", stepShown !== null ? `default ${stepShown}s` : "15s, 1m")}
      <label className="prometheus-field">
        <span>User (basic auth)</span>
        <input data-testid="prometheus-user" value={user} size={22} onChange={(e) => setUser(e.target.value)} autoComplete="off" />
      </label>
      <label className="prometheus-field">
        <span>{user ? "Password" : "Bearer token"}</span>
        <input data-testid="prometheus-token" type="password" value={token} size={22} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
      </label>
      <p className="hint">A token or password stays in this tab&apos;s memory: never in a link, the saved session or storage.</p>
      {asking ? (
        <div className="warning remote-consent" data-testid="prometheus-consent" data-hosts={asking.host}>
          <p style={{ margin: "0 0 6px" }}>
            This asks <strong>{asking.host}</strong> for data. Ask? Nothing has been sent yet; asking tells that host that this page was opened, and it answers only if it allows
            this page&apos;s origin.
          </p>
          <button
            type="button"
            data-testid="prometheus-consent-load"
            onClick={() => {
              agreeTo(asking.request.url);
              setAsking(null);
              onLoad(asking.request, auth());
            }}
          >
            Ask {asking.host}
          </button>{" "}
          <button type="button" data-testid="prometheus-consent-cancel" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="warning" data-testid="prometheus-error">
          {error}
        </p>
      ) : null}
      <div>
        <button type="button" data-testid="prometheus-load" onClick={submit}>
          Load
        </button>{" "}
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
        {typeof r !== "string" ? <span className="hint"> {publicAddress(r.url)}</span> : null}
      </div>
    </section>
  );
});

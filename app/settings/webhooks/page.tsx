import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { deliveryLog, endpointsOf } from "@/lib/domain/webhooks/endpoints";
import { EVENT_DOCS, SUBSCRIBABLE } from "@/lib/domain/webhooks/events";
import { ActionForm } from "@/components/action-form";
import { ConfirmButton } from "@/components/confirm-button";
import { formatInZone, relative } from "@/components/format";
import { OwnerShell } from "@/components/owner-shell";
import { SwitchForm } from "@/components/switch-form";
import { createWebhook, deleteWebhook, resend, rotateSecret, sendTest, togglePaused, updateWebhook } from "./actions";
import "@/components/webhooks.css";
import { FormOutcome } from "@/components/form-outcome";

export const dynamic = "force-dynamic";
export const metadata = { title: "Webhooks · Contentio" };

const DONE: Record<string, string> = {
  saved: "Saved.",
  paused: "Paused. Events wait until you resume it.",
  resumed: "Resumed. Waiting events go out now.",
  test: "A webhook.test event is on its way; it shows in the delivery log below.",
  deleted: "Deleted. Nothing more is sent to it.",
  resent: "It goes out again in a moment, with the same webhook-id.",
  gone: "That delivery no longer exists.",
};

const STATUS: Record<string, string> = { pending: "Waiting to retry", delivered: "Delivered", failed: "Gave up" };
const statusOf = (l: { status: string; attempts: number }) => (l.status === "pending" && l.attempts === 0 ? "Queued" : STATUS[l.status]);

function EventChoices({ name, chosen }: { name: string; chosen: readonly string[] }) {
  return (
    <fieldset className="events">
      <legend>Events</legend>
      {SUBSCRIBABLE.map((e) => (
        <div key={e} className="check">
          <input type="checkbox" id={`${name}-${e}`} name="events" value={e} defaultChecked={chosen.includes(e)} />{" "}
          <label htmlFor={`${name}-${e}`}>
            <code>{e}</code> <span className="muted">{EVENT_DOCS[e].replace(/`/g, "")}</span>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const me = await requireOwner("/settings/webhooks", { complete: true });
  const d = await db();
  const endpoints = await endpointsOf(d, me.id);
  const logs = await Promise.all(endpoints.map((e) => deliveryLog(d, me.id, e.id, 20)));
  const csrf = csrfToken(me.id, "webhooks");
  const now = new Date();
  return (
    <OwnerShell email={me.email} userId={me.id} current="/settings/webhooks">
      <h1>Webhooks</h1>
      <p>
        Contentio tells your programs (Zapier, n8n, your own backend) when a post went out, failed, or needs you, by sending a signed HTTPS request to each
        endpoint you add here. Requests follow <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>; failed ones are retried for 3 days.
      </p>
      <FormOutcome
        done={sp.done ? DONE[sp.done] : undefined}
        error={sp.error}
        failed={
          "That did not work: the endpoint may have been deleted meanwhile, or it is paused (resume it before sending a test). " +
          "Reload the page and try again."
        }
      />

      <section aria-labelledby="endpoints" className="card">
        <h2 id="endpoints">Endpoints</h2>
        {endpoints.length === 0 ? <p className="muted">No endpoint yet. Add one below; a connected app can add one too, and you see it here.</p> : null}
        <ul className="rows webhooks">
          {endpoints.map((e, i) => (
            <li key={e.id} id={`w-${e.id}`}>
              <div className="endpoint">
                <p className="url">
                  <strong>{e.url}</strong> {e.status === "active" ? <span className="badge good">Active</span> : <span className="badge warn">Paused</span>}
                </p>
                {e.description ? <p className="meta">{e.description}</p> : null}
                {e.pausedReason ? (
                  <p className="error-box" role="note">
                    {e.pausedReason}
                  </p>
                ) : null}
                {e.status === "active" && e.failingSince ? (
                  <p className="attention" role="note">
                    Deliveries have been failing since {formatInZone(e.failingSince, me.timezone)}. After 3 days of failures it is paused.
                  </p>
                ) : null}
                <p className="meta">
                  {e.events.length} event{e.events.length === 1 ? "" : "s"}: {e.events.join(", ")} · Added {relative(e.createdAt, now)} · Last delivered{" "}
                  {e.lastDeliveryAt ? relative(e.lastDeliveryAt, now) : "never"}
                  {e.previousSecretExpiresAt && e.previousSecretExpiresAt > now ? (
                    <> · The previous secret also signs until {formatInZone(e.previousSecretExpiresAt, me.timezone)}</>
                  ) : null}
                </p>
                <SwitchForm
                  action={togglePaused}
                  id={`send-${e.id}`}
                  on={e.status === "active"}
                  hidden={{ csrf, webhookId: e.id, paused: e.status === "active" ? "on" : "off" }}
                  label="Send events to this endpoint"
                  help="Off: events wait, and go out when you turn it back on (within 3 days)."
                />
                <div className="actions">
                  {e.status === "active" ? (
                    <form action={sendTest}>
                      <input type="hidden" name="csrf" value={csrf} />
                      <input type="hidden" name="webhookId" value={e.id} />
                      <button className="btn" type="submit">
                        Send test event
                      </button>
                    </form>
                  ) : null}
                  <ActionForm
                    action={rotateSecret}
                    label="Rotate secret"
                    confirm={{
                      question:
                        "Make a new signing secret? The current one keeps signing too for 24 hours, so you can update your receiver without missing events.",
                      label: "Rotate secret",
                    }}
                  >
                    <input type="hidden" name="csrf" value={csrf} />
                    <input type="hidden" name="webhookId" value={e.id} />
                  </ActionForm>
                  <ConfirmButton
                    action={deleteWebhook}
                    label="Delete"
                    confirm="Delete"
                    hidden={{ csrf, webhookId: e.id }}
                    question={`Delete the endpoint ${e.url}? Nothing more is sent to it, and its delivery log is deleted.`}
                  />
                </div>
                <details>
                  <summary>Edit</summary>
                  <ActionForm action={updateWebhook} className="stack webhook-form" label="Save changes" labelClass="btn primary">
                    <input type="hidden" name="csrf" value={csrf} />
                    <input type="hidden" name="webhookId" value={e.id} />
                    <label htmlFor={`url-${e.id}`}>URL</label>
                    <input id={`url-${e.id}`} name="url" type="url" required defaultValue={e.url} />
                    <label htmlFor={`desc-${e.id}`}>Description</label>
                    <input id={`desc-${e.id}`} name="description" type="text" maxLength={200} defaultValue={e.description ?? ""} />
                    <EventChoices name={`edit-${e.id}`} chosen={e.events} />
                  </ActionForm>
                </details>
                <details open={logs[i].some((l) => l.status !== "delivered")}>
                  <summary>Delivery log ({logs[i].length === 20 ? "latest 20" : logs[i].length})</summary>
                  {logs[i].length === 0 ? <p className="muted">Nothing sent yet.</p> : null}
                  <ul className="rows log">
                    {logs[i].map((l) => (
                      <li key={l.id}>
                        <div>
                          <code>{l.eventType}</code>{" "}
                          <span className={`badge${l.status === "delivered" ? " good" : l.status === "failed" ? " warn" : ""}`}>{statusOf(l)}</span>
                          <p className="meta">
                            {formatInZone(l.lastAttemptAt ?? l.createdAt, me.timezone)} · {l.attempts} attempt{l.attempts === 1 ? "" : "s"}
                            {l.lastResponseCode !== null ? <> · answered {l.lastResponseCode}</> : null}
                            {l.lastError ? <> · {l.lastError}</> : null}
                            {l.status === "pending" && l.attempts > 0 ? <> · next try {formatInZone(l.nextAttemptAt, me.timezone)}</> : null}
                          </p>
                          <p className="meta">webhook-id {l.eventId}</p>
                        </div>
                        <form action={resend}>
                          <input type="hidden" name="csrf" value={csrf} />
                          <input type="hidden" name="webhookId" value={e.id} />
                          <input type="hidden" name="deliveryId" value={l.id} />
                          <button className="btn" type="submit" aria-label={`Resend ${l.eventType} ${l.eventId}`}>
                            Resend
                          </button>
                        </form>
                      </li>
                    ))}
                  </ul>
                </details>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="add" className="card">
        <h2 id="add">Add an endpoint</h2>
        <ActionForm action={createWebhook} label="Add endpoint" labelClass="btn primary" className="stack webhook-form">
          <input type="hidden" name="csrf" value={csrf} />
          <label htmlFor="new-url">URL</label>
          <input id="new-url" name="url" type="url" required placeholder="https://example.com/webhooks/contentio" aria-describedby="new-url-help" />
          <p className="help" id="new-url-help">
            https only. Addresses on private networks, this machine or cloud metadata are refused, and redirects are not followed.
          </p>
          <label htmlFor="new-desc">Description (optional)</label>
          <input id="new-desc" name="description" type="text" maxLength={200} />
          <EventChoices name="new" chosen={["post.published", "post.failed", "post.unknown", "approval.requested"]} />
        </ActionForm>
      </section>

      <section aria-labelledby="verify" className="card">
        <h2 id="verify">Verifying a delivery</h2>
        <p>
          Each request carries <code>webhook-id</code> (the same on every retry: use it to ignore duplicates), <code>webhook-timestamp</code> and{" "}
          <code>webhook-signature</code>. With the <code>standardwebhooks</code> library:
        </p>
        <pre className="verify-code">
          <code>{`import { Webhook } from "standardwebhooks";
const payload = new Webhook(secret).verify(rawBody, headers); // throws if forged`}</code>
        </pre>
        <p>Answer with any 2xx status within 10 seconds. Anything else is retried with growing pauses for 3 days.</p>
      </section>
    </OwnerShell>
  );
}

import { safeReturnPath } from "@/lib/transports/auth/return-path";
import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { OnboardingForm } from "@/components/onboarding-form";
import { OwnerShell } from "@/components/owner-shell";
import { saveOnboarding } from "./actions";
import { GettingStarted } from "@/components/getting-started";
import { gettingStarted } from "@/lib/domain/owner/getting-started";
import { db } from "@/lib/adapters/db";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up your account · Contentio" };

const ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];

export default async function OnboardingPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const next = safeReturnPath((await searchParams).next);
  const me = await requireOwner(`/onboarding?next=${encodeURIComponent(next)}`);
  const done = me.accountCompletedAt !== null;
  // The owner the first start made: complete, but with a placeholder name, UTC and no voice.
  const firstVisit = done && !me.onboardedAt;
  const start = await gettingStarted(await db(), me.id);
  return (
    <OwnerShell email={me.email} current="/onboarding">
      <h1>{firstVisit ? "Welcome: set up your profile" : done ? "Your profile and voice" : "Set up your account"}</h1>
      <p>
        {firstVisit
          ? "Your account was made when the service first started. Tell it your name, your time zone and how you write; assistants use this to write like you."
          : done
            ? "Assistants use this to write like you. Changes apply to their next request."
            : "Three short steps. Until they are done, connected apps get the answer account_incomplete."}
      </p>
      <OnboardingForm
        action={saveOnboarding}
        csrf={csrfToken(me.id, "onboarding")}
        next={next}
        zones={ZONES.includes(me.timezone) ? ZONES : [me.timezone, ...ZONES]}
        guessZone={!me.onboardedAt && me.timezone === "UTC"}
        values={{
          name: firstVisit ? "" : (me.name ?? ""), // not the first start's placeholder "Owner"
          timezone: me.timezone,
          samplePosts: me.samplePosts,
          tone: me.tone.join(", "),
          niche: me.niche ?? "",
          traits: me.traits.join(", "),
          voiceSummary: me.voiceSummary ?? "",
          pillars: me.pillars.map((p) => (p.description ? `${p.name}: ${p.description}` : p.name)).join("\n"),
        }}
      />
      {done && !firstVisit ? <GettingStarted steps={start.steps} csrf={csrfToken(me.id, "getting-started")} page="/onboarding" hidden={start.hidden} /> : null}
    </OwnerShell>
  );
}

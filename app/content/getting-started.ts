"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerForm } from "@/lib/transports/owner/form";
import { setGettingStartedOp } from "@/lib/operations/in-person/set-getting-started";

// The getting-started list's one button, on Content (put it away) and under Profile (show it
// on Content again), through the one door.

export async function setGettingStarted(form: FormData) {
  const page = form.get("page") === "/onboarding" ? "/onboarding" : "/content";
  const hidden = form.get("hidden") === "on";
  await ownerForm(form, { page, purpose: "getting-started", expired: () => redirect(`${page}?error=expired`) }, (door) =>
    door.run(setGettingStartedOp, { hidden }),
  );
  revalidatePath(page);
  redirect(hidden ? page : "/content");
}

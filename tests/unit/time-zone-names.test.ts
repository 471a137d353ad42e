import { describe, expect, it } from "vitest";
import { OnboardingInput, zoneNamed } from "@/lib/domain/owner/onboarding";

describe("a time zone as a person types it", () => {
  it("is a zone in any case, or the city it is named after", () => {
    expect(zoneNamed("europe/berlin")).toBe("Europe/Berlin");
    expect(zoneNamed("Berlin")).toBe("Europe/Berlin");
    expect(zoneNamed(" new york ")).toBe("America/New_York");
    expect(zoneNamed("Sao_Paulo")).toBe("America/Sao_Paulo");
    expect(zoneNamed("UTC")).toBe("UTC");
  });

  it("is nothing when no zone or city answers to it", () => {
    for (const typed of ["Mars/Olympus", "Atlantis", "", "europe"]) expect(zoneNamed(typed)).toBeUndefined();
  });

  it("onboarding stores the zone a city names, and refuses what names none", () => {
    const timezone = OnboardingInput.shape.timezone;
    expect(timezone.parse("berlin")).toBe("Europe/Berlin");
    const refused = timezone.safeParse("Atlantis");
    expect(refused.error?.issues.map((i) => i.message)).toEqual([expect.stringMatching(/^Choose a time zone or a city/)]);
  });
});

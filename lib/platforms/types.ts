// The Platform port's contract is neutral (lib/networks/platform.ts: the domain reads it too);
// the adapters import it from here, beside their own code.
export * from "@/lib/networks/platform";

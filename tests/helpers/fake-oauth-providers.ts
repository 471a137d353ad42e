import { startFakePlatforms } from "./fake-platforms";
import type { Person, SignIn } from "./fakes/state";

export type { Person };

// One network's sign-in on the fake LinkedIn and X (fake-platforms.ts), seen alone: what the
// sign-in tests read. The same server also publishes, so a connection made here can post.

export type FakeOAuth = SignIn & { url: string; close: () => Promise<void> };

export async function startFakeOAuth(kind: "linkedin" | "x", person: Person, opts: { linkedinPartner?: boolean } = {}): Promise<FakeOAuth> {
  const fake = await startFakePlatforms(opts);
  const s = fake.signIn[kind];
  s.person = person;
  return Object.assign(s, { url: fake.url, close: fake.close });
}

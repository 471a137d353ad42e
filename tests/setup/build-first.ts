// `npm test`'s first step (package.json "pretest"): the built app, made or found fresh before
// the type check and the tests start. The build writes Next's route types (.next/types), which
// the type check then covers (the build itself does not type-check: next.config.mjs), and a
// build while tsc runs would delete them from under it.
import { ensureBuild } from "../helpers/build";

await ensureBuild();

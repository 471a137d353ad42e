#!/usr/bin/env bash
# better-sqlite3 (under @atproto/dev-env, the PDS the Bluesky tests run) downloads its compiled
# module from GitHub, which these machines cannot reach, so `npm install` compiles it: minutes
# on two cores. Once compiled, it is kept here as the tarball prebuild-install looks for in
# npm_config_better_sqlite3_local_prebuilds, so the next install on this machine unpacks it
# instead (seconds). A machine without it compiles, as before.
set -euo pipefail
dir=${npm_config_better_sqlite3_local_prebuilds:?}
pkg=node_modules/better-sqlite3
[[ -f $pkg/build/Release/better_sqlite3.node ]] || exit 0
name=$(node -p "const p = require('./$pkg/package.json'); \`\${p.name}-v\${p.version}-node-v\${process.versions.modules}-\${process.platform}-\${process.arch}.tar.gz\`")
[[ -f $dir/$name ]] && exit 0
mkdir -p "$dir"
tar -C "$pkg" -czf "$dir/$name.tmp" build/Release/better_sqlite3.node
mv "$dir/$name.tmp" "$dir/$name"
echo "kept $name for the next install"

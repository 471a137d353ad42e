#!/usr/bin/env bash
# The dependencies, as a CI cache keyed on the lockfile would give them: a tree this machine
# installed before from the same package.json, package-lock.json, patches/ and Node.js is
# linked in (hard links: seconds, no copy) instead of installed again (about two minutes);
# anything else installs afresh, and the new tree is kept in place of the old one. Set
# CI_FRESH_INSTALL=1 to always install.
set -euo pipefail
cache_root=${CONTENTIO_CACHE:-$HOME/.cache/contentio}
# The key: what decides the tree. Of package.json only the fields an install reads, so that a
# change to another script or a description does not cost an install.
installed_by=$(node -p 'const p = require("./package.json"); JSON.stringify([p.dependencies, p.devDependencies, p.optionalDependencies, p.overrides, p.scripts?.postinstall])')
key=$( (node -v; echo "$installed_by"; cat package-lock.json; find patches -type f | LC_ALL=C sort | xargs cat) | sha256sum | cut -c1-16)
kept=$cache_root/node_modules-$key

if [[ -z ${CI_FRESH_INSTALL:-} && -d $kept && ! -e node_modules ]]; then
  cp -al "$kept" node_modules
  echo "dependencies linked from $kept"
  exit 0
fi

npm install --no-audit --no-fund
.ci/keep-prebuilds.sh
mkdir -p "$cache_root"
rm -rf "$kept.tmp"
cp -al node_modules "$kept.tmp"
rm -rf "$kept.tmp/.vite" "$kept.tmp/.cache"
find "$cache_root" -maxdepth 1 -name 'node_modules-*' ! -name "node_modules-$key*" -exec rm -rf {} +
rm -rf "$kept"
mv "$kept.tmp" "$kept"
echo "dependencies kept in $kept"

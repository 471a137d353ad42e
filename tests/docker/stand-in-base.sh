#!/usr/bin/env bash
# Builds a stand-in for the Dockerfile's base image (node:24-bookworm-slim) from Debian's
# packages and Node.js from the npm registry, for machines that cannot pull images: a minimal
# bookworm from debootstrap, node and npm where the official image has them, and its `node`
# user (uid 1000). The tag's major version (node:MAJOR-...) decides which Node.js: this
# machine's when it is that version, else the npm registry's `node` package of it (a build of
# the official binary). Usage: stand-in-base.sh TAG
set -euo pipefail
tag=$1
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
mirror=${mirror:-http://deb.debian.org/debian}
root=$(mktemp -d /var/tmp/stand-in-base.XXXXXX)
trap 'rm -rf "$root"' EXIT

echo "== stand-in for $tag: debootstrap bookworm from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 || { tail -20 "$root.log"; exit 1; }
rm -f "$root.log"
major=$(sed -n 's/^node:\([0-9]*\).*/\1/p' <<<"$tag")
node_bin=$(readlink -f "$(command -v node)")
if [[ -n $major && $(node -p 'process.versions.node.split(".")[0]') != "$major" ]]; then
  node_bin=$(npx -y -p "node@$major" -- sh -c 'readlink -f "$(command -v node)"')
fi
echo "   Node.js $("$node_bin" --version) from $node_bin"
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
install -m 755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
# This machine reaches the npm registry through a proxy whose certificate authority it trusts
# by NODE_EXTRA_CA_CERTS: the stand-in trusts it too, so that `npm install` in the build works.
changes=()
if [[ -n ${NODE_EXTRA_CA_CERTS:-} && -f $NODE_EXTRA_CA_CERTS ]]; then
  install -D -m 644 "$NODE_EXTRA_CA_CERTS" "$root/usr/local/share/stand-in/extra-ca.crt"
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/stand-in/extra-ca.crt')
fi
tar -C "$root" -c . | docker import "${changes[@]}" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  --message "stand-in for $tag: Debian bookworm (debootstrap) and Node.js $("$node_bin" --version)" \
  - "$tag" >/dev/null
echo "== stand-in for $tag built"

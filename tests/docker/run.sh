#!/usr/bin/env bash
# `npm run test:docker`: the image and compose.yaml, for real. Builds the project's image,
# starts its compose service on the host's network against this machine's PostgreSQL and
# Redis, waits for /readyz, creates a draft through the API, restarts the container, reads
# the draft back, and tears everything down.
#
# This machine cannot pull images: the Docker engine comes from Debian's docker.io (started,
# if it is not running, with no bridge and no iptables: nothing leaves loopback) and the base
# image is a stand-in built by stand-in-base.sh. Both exist only for that reason.
set -euo pipefail
cd "$(dirname "$0")/../.."

base=$(sed -n 's/^ARG BASE_IMAGE=//p' Dockerfile)
project=contentio-test
port=${TEST_DOCKER_PORT:-3197}
db=contentio_docker_test
pg=postgres://postgres@127.0.0.1:5432
export TEST_PORT=$port TEST_PORT2=$((port + 1)) TEST_DATABASE_URL=$pg/$db TEST_REDIS_URL=redis://127.0.0.1:6379
export APP_URL=http://127.0.0.1:$port POSTGRES_PASSWORD=unused
AUTH_SECRET=$(head -c 32 /dev/urandom | base64)
export AUTH_SECRET
env_file=$(mktemp)
export ENV_FILE=$env_file

missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if ((${#missing[@]})); then
  echo "== installing ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Debian's client, which matches its engine.
docker() { /usr/bin/docker "$@"; }
# compose.yaml with tests/docker/compose.host.yaml over it, less the app's published port, which
# host networking does not take (a compose override can only add to a list), and less the
# services of images this machine cannot pull (and the wait for them), so that no network is
# made for them.
stack=$(mktemp --suffix=.yaml)
compose() { docker-compose -p "$project" -f "$stack" "$@"; }
docker-compose -f compose.yaml -f tests/docker/compose.host.yaml config |
  python3 -c '
import sys, yaml
c = yaml.safe_load(sys.stdin)
c["services"] = {name: c["services"][name] for name in ("app", "app2")}
for service in c["services"].values():
    for key in ("ports", "depends_on", "profiles"):
        service.pop(key, None)
c["volumes"] = {"app-data": {}, "app2-data": {}}
yaml.safe_dump(c, sys.stdout)' >"$stack"

started_dockerd=
cleanup() {
  status=$?
  compose down --volumes --remove-orphans >/dev/null 2>&1 || true
  psql "$pg/postgres" -qc "drop database if exists $db" >/dev/null 2>&1 || true
  rm -f "$env_file" "$stack"
  if [[ -n $started_dockerd ]]; then kill "$started_dockerd" 2>/dev/null && wait "$started_dockerd" 2>/dev/null || true; fi
  exit $status
}
trap cleanup EXIT

if ! docker info >/dev/null 2>&1; then
  echo "== starting the Docker engine (no bridge, no iptables)"
  dockerd --bridge=none --iptables=false --ip6tables=false >/var/log/contentio-test-dockerd.log 2>&1 &
  started_dockerd=$!
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null
fi

if ! docker image inspect "$base" >/dev/null 2>&1; then
  start=$SECONDS
  tests/docker/stand-in-base.sh "$base"
  echo "   in $((SECONDS - start)) s"
fi

echo "== docker build"
start=$SECONDS
docker build --force-rm --network=host --tag contentio:test . >/tmp/contentio-docker-build.log 2>&1 || {
  tail -40 /tmp/contentio-docker-build.log
  exit 1
}
size=$(docker image inspect contentio:test --format '{{.Size}}')
echo "   built in $((SECONDS - start)) s, $((size / 1000000)) MB"

psql "$pg/postgres" -qc "drop database if exists $db" -c "create database $db" >/dev/null

ready() { # PORT SERVICE
  for _ in $(seq 1 120); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/readyz") == 200 ]] && return 0
    sleep 1
  done
  echo "$2 not ready after 120 s:"
  curl -s "http://127.0.0.1:$1/readyz" || true
  compose logs --tail=40 "$2"
  return 1
}
api() { # PORT OPERATION BODY
  curl -sS -X POST "http://127.0.0.1:$1/api/v1/$2" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "$3"
}
admin() { compose exec -T app node server/admin.mjs "$@"; }
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=process.argv[1].split(".").reduce((o,k)=>o?.[k],JSON.parse(s));if(v===undefined){console.error("no "+process.argv[1]+" in "+s);process.exit(1)}console.log(v)})' "$1"; }

echo "== compose up: two replicas at once on a fresh database (host network, this machine's PostgreSQL and Redis)"
compose up --detach --no-build app app2
ready "$port" app
ready "$((port + 1))" app2
[[ $(compose exec -T app id -u | tr -d '\r') != 0 ]] || { echo "the app runs as root"; exit 1; }

email=docker-test@example.com
printf 'a-long-test-password\n' | admin create-user --email "$email" --password-stdin --name "Docker test" --plan creator >/dev/null
token=$(admin issue-token --email "$email" --app "Docker test" | field access_token)
text="Written through the API of the container $(date +%s%N)"
id=$(api "$port" create_draft "{\"type\":\"post\",\"body\":\"$text\"}" | field id)

echo "== restart"
compose restart
ready "$port" app
ready "$((port + 1))" app2
got=$(api "$((port + 1))" fetch_item "{\"type\":\"post\",\"id\":\"$id\"}" | field body)
[[ $got == "$text" ]] || { echo "after the restart the draft reads: $got"; exit 1; }

# The image's own health check, as Docker runs it.
health=$(docker inspect --format '{{json .Config.Healthcheck.Test}}' "$(compose ps -q app)")
compose exec -T app node -e "$(node -e 'console.log(JSON.parse(process.argv[1]).at(-1))' "$health")"

# A page, which the API alone would not load.
[[ $(curl -s -o /dev/null -w '%{http_code}' "$APP_URL/signin") == 200 ]] || { echo "the sign-in page did not load"; exit 1; }

echo "== passed: two replicas ready, draft kept across a restart, a page served, non-root, health check ok"

#!/usr/bin/env bash
# The CLI as a contributor gets it: builds packages/cli, packs it, installs the tarball into an
# empty prefix (no registry, no other package), and runs `events --version` and a dry run of a small
# calendar with nothing on PATH but node. Prints "cli package: ok" or says what failed (exit 1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
fail() { echo "cli package: FAILED: $*" >&2; exit 1; }

node scripts/build-cli.mjs || fail "the build failed"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd packages/cli && npm pack --silent --pack-destination "$work" >/dev/null) || fail "npm pack failed"
tarball=$(ls "$work"/*.tgz)
echo "packed $(basename "$tarball") ($(du -k "$tarball" | cut -f1) KiB)"

mkdir "$work/prefix" "$work/home"
# A clean environment: no project node_modules, no npm cache or registry to fall back on.
(cd "$work" && env -i PATH="$(dirname "$(command -v node)"):/usr/bin:/bin" HOME="$work/home" \
  npm install -g --prefix "$work/prefix" --offline --no-audit --no-fund "$tarball" >/dev/null) ||
  fail "npm install -g of the tarball failed"
installed=$(ls "$work/prefix/lib/node_modules" | tr '\n' ' ')
[ "$installed" = "@tech-events " ] || fail "the prefix holds more than the CLI: $installed"
[ -z "$(ls "$work/prefix/lib/node_modules/@tech-events/cli/node_modules" 2>/dev/null)" ] ||
  fail "the package installed dependencies"

run() {
  (cd "$work" && env -i PATH="$work/prefix/bin:$(dirname "$(command -v node)")" HOME="$work/home" \
    NO_COLOR=1 events "$@")
}
expected=$(node -p "require('$root/packages/cli/package.json').version")
version=$(run --version) || fail "events --version failed"
[ "$version" = "$expected" ] || fail "events --version printed '$version', expected '$expected'"
echo "events --version: $version"

summary=$(run push "$root/tests/fixtures/cli/small.ics" --dry-run --from 2030-03-01 --json) ||
  fail "the dry run exited $?"
valid=$(node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0, "utf8")).valid))' <<<"$summary")
[ "$valid" = "4" ] || fail "the dry run found $valid valid events, expected 4"
echo "events push small.ics --dry-run: $valid events"
echo "cli package: ok"

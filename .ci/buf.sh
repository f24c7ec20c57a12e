#!/usr/bin/env bash
# The proto contract (proto/): `buf lint` with proto/buf.yaml (STANDARD and COMMENTS; solver.v1's
# frozen names and the vendored google/ files excepted), then `buf breaking` of proto/ against
# the previous commit (HEAD~1).
#
# buf comes from npm (@bufbuild/buf, whose platform package ships the binary), installed once
# into target/buf and reused while its version is the one pinned here.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.75.0
dir=target/buf
buf="$dir/node_modules/.bin/buf"
if [ ! -x "$buf" ] || [ "$("$buf" --version 2>/dev/null)" != "$version" ]; then
    if ! command -v npm >/dev/null; then
        apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
    fi
    echo "installing @bufbuild/buf@$version into $dir"
    rm -rf "$dir"
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error \
        "@bufbuild/buf@$version" >/dev/null
fi
echo "buf $("$buf" --version)"

echo "--- buf lint proto"
# Prints one line per finding and exits non-zero when there is any.
"$buf" lint proto
echo "buf lint: no findings"

echo "--- buf breaking proto against the previous commit"
# Only files that exist in the previous commit are compared: a file added since (a new package
# such as solver/v2, the vendored google/ files) has nothing to break. The previous commit's
# proto/ is read from git as buf's own git input; without a proto/buf.yaml there, buf reads it
# with its defaults, which is all a comparison needs.
#
# A clone without the previous commit (a shallow clone, `--depth 1`; CI's clean clone of main is
# a full one) or a first commit cannot be compared: the check says so and is skipped, and does
# not fail. A previous commit without proto/ is skipped the same way.
if ! base=$(git rev-parse --verify --quiet 'HEAD~1^{commit}'); then
    echo "buf breaking: skipped, no previous commit in this clone (first commit or shallow clone)"
elif ! git cat-file -e "$base:proto" 2>/dev/null; then
    echo "buf breaking: skipped, the previous commit ($base) has no proto/"
else
    # Prints one line per breaking change and exits non-zero when there is any.
    "$buf" breaking proto --against ".git#ref=$base,subdir=proto"
    echo "buf breaking: no breaking change against $(git log -1 --format='%h %s' "$base" | cut -c1-72)"
fi

#!/usr/bin/env bash
# nginx for the test of the reverse-proxy configuration in docs/DEPLOY.md.
#
#   eval "$(scripts/nginx.sh)"     # exports POLYSHOGI_TEST_NGINX (the nginx binary)
#
# Installs Debian's `nginx` package with apt-get if no nginx is installed (running `apt-get
# update` only when the package cannot be found). The test runs its own nginx, as this user,
# on free ports with a configuration and files of its own; no system service is used. Only
# the `export …` line goes to stdout; progress goes to stderr.
set -euo pipefail

say() { echo "nginx.sh: $*" >&2; }
# shellcheck source=debian-package.sh
. "$(dirname "${BASH_SOURCE[0]}")/debian-package.sh"

find_nginx() {
    for candidate in "$(command -v nginx 2>/dev/null || true)" /usr/sbin/nginx; do
        if [ -n "$candidate" ] && [ -x "$candidate" ]; then
            echo "$candidate"
            return
        fi
    done
}

BIN=$(find_nginx)
if [ -z "$BIN" ]; then
    install_debian_package nginx
    # The package starts a system service on port 80; the test needs none.
    as_root service nginx stop >&2 2>/dev/null || true
    BIN=$(find_nginx)
    if [ -z "$BIN" ]; then
        say "nginx is still not installed"
        exit 1
    fi
fi
say "ready: $BIN ($("$BIN" -v 2>&1))"
echo "export POLYSHOGI_TEST_NGINX=$BIN"

# Sourced by the scripts that need a Debian package for the tests (postgres.sh, nginx.sh):
# `install_debian_package NAME` installs it with apt-get, as root (through sudo when not root),
# running `apt-get update` only when the package cannot be found or the lists are stale.
# Progress goes to stderr, so that the caller's stdout stays its own.

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_debian_package() {
    echo "installing Debian's $1 package" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-cache show "$1" >/dev/null 2>&1; then
        as_root apt-get update >&2
    fi
    if ! as_root apt-get install -y --no-install-recommends "$1" >&2; then
        # The package lists may be stale (a mirror moved on): refresh them once and retry.
        as_root apt-get update >&2
        as_root apt-get install -y --no-install-recommends "$1" >&2
    fi
}

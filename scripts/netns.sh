#!/bin/sh
# Runs a command in a network namespace of its own with only loopback, brought up: what the
# browser tests that make calls need (WebRTC in Chromium otherwise gathers candidates on the
# machine's other interfaces too). Root gets `unshare -n`; anyone else a user namespace as
# well (`unshare -rn`, where the kernel allows unprivileged user namespaces, as Debian does).
# E2E_NETNS=0 runs the command as it is (calls may then fail to connect).
set -eu
if [ "${E2E_NETNS:-1}" = 0 ]; then exec "$@"; fi
if [ "$(id -u)" = 0 ]; then flags=-n; else flags=-rn; fi
PATH="$PATH:/usr/sbin:/sbin"
exec unshare "$flags" sh -c 'ip link set lo up && exec "$@"' netns "$@"

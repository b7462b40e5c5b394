#!/usr/bin/env bash
# Installs the built package, checks what an operator would try first
# (man page, --version, bash completion of `ylemctl st<TAB>`), and removes
# it again. Runs as root (CI). Usage: packaging/check-deb.sh PACKAGE.deb
set -euo pipefail
deb=$1
command -v man >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y man-db; }

dpkg -i "$deb"
trap 'dpkg -r ylemctl >/dev/null' EXIT

test -x /usr/bin/ylemctl
man -w ylemctl | grep -q '/usr/share/man/man1/ylemctl.1.gz'
MANPAGER=cat man ylemctl 2>/dev/null | grep -q 'ylemctl'
for page in stats logs run check login auth-token alias-set; do
    test -f "/usr/share/man/man1/ylemctl-$page.1.gz" || { echo "missing man page ylemctl-$page" >&2; exit 1; }
done

version=$(/usr/bin/ylemctl --version)
echo "$version" | grep -Eq '^ylemctl [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{9,} [0-9]{4}-[0-9]{2}-[0-9]{2}|built outside git: no commit recorded)\)$' || { echo "bad --version: $version" >&2; exit 1; }

# What bash offers for `ylemctl st<TAB>`, using the installed script.
offered=$(bash -c '
    source /usr/share/bash-completion/completions/ylemctl
    COMP_WORDS=(ylemctl st); COMP_CWORD=1; COMP_LINE="ylemctl st"; COMP_POINT=${#COMP_LINE}
    _ylemctl_with_aliases ylemctl st ylemctl
    printf "%s\n" "${COMPREPLY[@]}"')
echo "$offered" | grep -qx stats || { echo "bash completion of 'ylemctl st' offered: $offered" >&2; exit 1; }
test -f /usr/share/zsh/vendor-completions/_ylemctl
test -f /usr/share/fish/vendor_completions.d/ylemctl.fish
# The exporters' hardened units, which systemd accepts as written.
for unit in ylemctl-exporter.service ylemctl-export-otlp.service; do
    test -f "/usr/lib/systemd/system/$unit"
    if command -v systemd-analyze >/dev/null; then
        systemd-analyze verify --man=no "/usr/lib/systemd/system/$unit"
    fi
done

trap - EXIT
dpkg -r ylemctl
test ! -e /usr/bin/ylemctl || { echo "dpkg -r left /usr/bin/ylemctl" >&2; exit 1; }
echo "package ok: $version; man ylemctl; 'ylemctl st<TAB>' -> $(echo $offered); removed"

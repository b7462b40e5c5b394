#!/usr/bin/env bash
# Builds target/debian/ylemctl_<version>_<arch>.deb from a release build:
# the binary in /usr/bin, the man pages gzipped in /usr/share/man/man1, and
# the completions where bash, zsh and fish look for system completions.
# Needs dpkg-deb (Debian's dpkg). Prints the path of the package.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
arch=$(dpkg --print-architecture)
cargo build --release --locked >&2

target=${CARGO_TARGET_DIR:-target}
stage=$target/debian/stage
rm -rf "$stage"
install -Dm755 "$target/release/ylemctl" "$stage/usr/bin/ylemctl"
for page in man/*.1; do
    install -Dm644 "$page" "$stage/usr/share/man/man1/$(basename "$page")"
    gzip -9n "$stage/usr/share/man/man1/$(basename "$page")"
done
install -Dm644 completions/ylemctl.bash "$stage/usr/share/bash-completion/completions/ylemctl"
install -Dm644 completions/_ylemctl "$stage/usr/share/zsh/vendor-completions/_ylemctl"
install -Dm644 completions/ylemctl.fish "$stage/usr/share/fish/vendor_completions.d/ylemctl.fish"
install -Dm644 README.md "$stage/usr/share/doc/ylemctl/README.md"
# The licence, where Debian looks for it: MIT OR Apache-2.0, both texts.
{
    echo "ylemctl is licensed under the MIT licence or the Apache License 2.0, at your option."
    echo
    cat LICENSE-MIT
    echo
    cat LICENSE-APACHE
} > "$stage/usr/share/doc/ylemctl/copyright"
chmod 644 "$stage/usr/share/doc/ylemctl/copyright"
install -Dm644 examples/crontab "$stage/usr/share/doc/ylemctl/examples/crontab"
# The exporter as a system unit, installed disabled (examples/ has how to set it up).
install -Dm644 examples/ylemctl-exporter.service "$stage/usr/lib/systemd/system/ylemctl-exporter.service"
# The trace exporter (export otlp --follow) beside it, disabled too.
install -Dm644 examples/ylemctl-export-otlp.service "$stage/usr/lib/systemd/system/ylemctl-export-otlp.service"
for unit in examples/*.service examples/*.timer examples/ylemctl.env.example; do
    install -Dm644 "$unit" "$stage/usr/share/doc/ylemctl/examples/$(basename "$unit")"
done

# The newest glibc symbol version the binary needs is its libc6 dependency.
glibc=$(objdump -T "$stage/usr/bin/ylemctl" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
size=$(du -sk "$stage" | cut -f1)
mkdir -p "$stage/DEBIAN"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@GLIBC@/${glibc:-2.31}/" \
    packaging/deb/control.in > "$stage/DEBIAN/control"

deb="$target/debian/ylemctl_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$stage" "$deb" >&2
echo "$deb"

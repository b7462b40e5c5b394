#!/usr/bin/env python3
"""Every dependency a crate declares is used by that crate's code: no build, no network.

For each package (the root, crates/*, outside/, fuzz/), each name in
[dependencies] (and [build-dependencies]) is searched in src/ and build.rs,
and each name in [dev-dependencies] in those plus tests/, examples/ and
benches/, as `name::`, `name!`, `use name`, `extern crate name` or
`#[name::` (the name with `-` read as `_`). A dependency used only through
Cargo (for its features, or by another dependency's macro) is named in
ALLOWED with the reason. Exits 1 naming each unused dependency.
"""

import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent

# (package folder, dependency): why it has no `name::` in the code.
ALLOWED = {
    # The fuzz targets' harness: `fuzz_target!` comes through its prelude.
    ("fuzz", "libfuzzer-sys"): "the fuzz_target! macro",
    # Until tests/contract.rs (issue 45) starts one: the example that did
    # moved to outside/. Drop this line once that test is in.
    ("crates/ylem-client", "ylem-sandbox"): "tests/contract.rs, coming",
}

SECTIONS_NORMAL = ("dependencies", "build-dependencies")
SECTIONS_DEV = ("dev-dependencies",)
# fuzz/ keeps its targets in fuzz_targets/.
CODE_NORMAL = ("src", "build.rs", "fuzz_targets")
CODE_DEV = ("tests", "examples", "benches")


def sources(pkg: pathlib.Path, places) -> str:
    text = []
    for place in places:
        p = pkg / place
        files = [p] if p.is_file() else sorted(p.rglob("*.rs")) if p.is_dir() else []
        for f in files:
            if "target" in f.relative_to(pkg).parts:
                continue
            code = f.read_text(encoding="utf-8")
            text.append(code)
            # A module taken from elsewhere (`#[path = "..."]`) is this
            # crate's code too.
            for other in re.findall(r'#\[path\s*=\s*"([^"]+)"\]', code):
                included = (f.parent / other).resolve()
                if included.is_file():
                    text.append(included.read_text(encoding="utf-8"))
    return "\n".join(text)


def used(name: str, code: str) -> bool:
    ident = re.escape(name.replace("-", "_"))
    pattern = rf"(\b{ident}::|\b{ident}!|\buse\s+{ident}\b|extern\s+crate\s+{ident}\b|#\[{ident}::)"
    return re.search(pattern, code) is not None


def declared(manifest: dict, sections):
    for section in sections:
        # A `package = "..."` rename: the code says the key.
        yield from manifest.get(section, {}).keys()
    for target in manifest.get("target", {}).values():
        for section in sections:
            yield from target.get(section, {}).keys()


def main() -> int:
    packages = [ROOT] + sorted(p.parent for p in ROOT.glob("crates/*/Cargo.toml"))
    for extra in ("outside", "fuzz"):
        if (ROOT / extra / "Cargo.toml").is_file():
            packages.append(ROOT / extra)
    unused = []
    for pkg in packages:
        manifest = tomllib.loads((pkg / "Cargo.toml").read_text(encoding="utf-8"))
        rel = "." if pkg == ROOT else str(pkg.relative_to(ROOT))
        normal_code = sources(pkg, CODE_NORMAL)
        all_code = normal_code + "\n" + sources(pkg, CODE_DEV)
        for name in declared(manifest, SECTIONS_NORMAL):
            if (rel, name) not in ALLOWED and not used(name, normal_code):
                unused.append(f"{rel}: [dependencies] {name}")
        normal = set(declared(manifest, SECTIONS_NORMAL))
        for name in declared(manifest, SECTIONS_DEV):
            if (rel, name) in ALLOWED:
                continue
            if name in normal:
                # A dev line beside a normal one adds features, or makes an
                # optional dependency always there for the tests.
                spec = manifest["dev-dependencies"][name]
                base = manifest.get("dependencies", {}).get(name, {})
                adds = isinstance(spec, dict) and spec.get("features")
                optional = isinstance(base, dict) and base.get("optional")
                if not (adds or optional):
                    unused.append(f"{rel}: [dev-dependencies] {name} repeats [dependencies]")
                continue
            if not used(name, all_code):
                unused.append(f"{rel}: [dev-dependencies] {name}")
    for line in unused:
        print(f"unused dependency: {line}", file=sys.stderr)
    if unused:
        return 1
    print(f"check-deps: {len(packages)} packages, every dependency used")
    return 0


if __name__ == "__main__":
    sys.exit(main())

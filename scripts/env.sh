# Sourced by scripts/*: where the tools scripts/setup installs are found.
# npm's wasm-opt (binaryen 132) must come before any other on PATH: Debian's binaryen 108
# builds a bundle that dies on load (see ../shared/TOOLCHAIN.md).
HEADROOM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export HEADROOM_ROOT
export PATH="$HEADROOM_ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

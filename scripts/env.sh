# Sourced by scripts/*: where the tools scripts/setup installs are found.
# npm's wasm-opt (binaryen 132) must come before any other on PATH: Debian's binaryen 108
# builds a bundle that dies on load (see ../shared/TOOLCHAIN.md).
HEADROOM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export HEADROOM_ROOT
export PATH="$HEADROOM_ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# wasm-bindgen-test-runner gives chromedriver 5 s to bind its port and each test 20 s; a loaded CI
# machine (cold caches, other jobs) has exceeded the first (stop 10: "driver failed to bind port
# during startup"). Generous limits cost nothing when things are fast.
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT="${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-90}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"

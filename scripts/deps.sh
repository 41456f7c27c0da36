#!/usr/bin/env bash
# Installs what a fresh machine lacks for building, testing and the demo:
# a Chromium-family browser (Debian's `chromium` package), Xvfb, openbox
# and xprop for the headful tests, the npm packages of the extension
# (TypeScript and type definitions only) and those of the end-to-end
# corpus (real widget libraries, Playwright MCP). It says exactly what to
# install when it cannot do it itself.
set -euo pipefail
cd "$(dirname "$0")/.."

have_browser() {
  [ -n "${AGENTTAB_BROWSER:-}" ] && [ -x "${AGENTTAB_BROWSER}" ] && return 0
  for b in chromium chromium-browser google-chrome google-chrome-stable microsoft-edge brave-browser; do
    command -v "$b" >/dev/null 2>&1 && return 0
  done
  [ -d "/Applications/Chromium.app" ] || [ -d "/Applications/Google Chrome.app" ]
}

if ! have_browser; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "deps: installing Debian's chromium package" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  else
    echo "deps: no Chromium-family browser found. Install one: macOS 'brew install --cask chromium'; Debian/Ubuntu 'sudo apt-get install -y chromium'; or set AGENTTAB_BROWSER=/path/to/browser" >&2
    exit 1
  fi
fi

# The headful end-to-end tier (e2e/harness/headful.go) runs Chromium on its
# own Xvfb display under openbox, and reads the X server's active window
# with xprop (x11-utils). The user's idle state is driven with xset
# (x11-xserver-utils) and xdotool (e2e/harness/idle.go); the debugging
# banner's Cancel is found in Chromium's UI through AT-SPI (a private
# dbus-daemon, at-spi2-core, Debian's python3-pyatspi) and clicked with
# xdotool (e2e/harness/banner.go).
missing_x=""
for pair in Xvfb:xvfb openbox:openbox xprop:x11-utils xset:x11-xserver-utils xdotool:xdotool dbus-daemon:dbus-daemon /usr/libexec/at-spi-bus-launcher:at-spi2-core; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing_x="$missing_x ${pair#*:}"
done
/usr/bin/python3 -c 'import pyatspi' >/dev/null 2>&1 || missing_x="$missing_x python3-pyatspi"
if [ -n "$missing_x" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "deps: installing$missing_x for the headful tests" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing_x >/dev/null
  else
    echo "deps: the headful end-to-end tests need an X virtual framebuffer, openbox, X tools and AT-SPI: Debian/Ubuntu 'sudo apt-get install -y xvfb openbox x11-utils x11-xserver-utils xdotool dbus-daemon at-spi2-core python3-pyatspi'" >&2
    exit 1
  fi
fi

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "deps: Node.js 20+ and npm are needed for the extension's type check and unit tests: 'sudo apt-get install -y nodejs npm' or https://nodejs.org" >&2
  exit 1
fi

if [ ! -d extension/node_modules ] || [ extension/package-lock.json -nt extension/node_modules/.package-lock.json ]; then
  echo "deps: installing the extension's npm packages" >&2
  npm ci --prefix extension --no-audit --no-fund --loglevel=error
fi

# The end-to-end corpus's real widget libraries (jQuery UI, React,
# xterm.js, SortableJS) and Playwright MCP for the side-by-side benchmark
# (e2e/corpus/package.json). Playwright drives Debian's chromium; it
# downloads no browser.
if [ ! -d e2e/corpus/node_modules ] || [ e2e/corpus/package-lock.json -nt e2e/corpus/node_modules/.package-lock.json ]; then
  echo "deps: installing the end-to-end corpus's npm packages" >&2
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix e2e/corpus --no-audit --no-fund --loglevel=error
fi

# The adapters' npm packages: the shared Core client's type definitions
# (adapters/core), the real Pi and OMP coding agents the adapters load into
# (adapters/pi, adapters/omp; OMP runs on Bun, taken from npm too), and the
# official MCP clients of the conformance test (e2e/conformance: the
# TypeScript SDK and the MCP Inspector's CLI mode). None needs an install
# script.
for dir in adapters/core adapters/pi adapters/omp e2e/conformance; do
  [ -f "$dir/package-lock.json" ] || continue
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "deps: installing $dir's npm packages" >&2
    if [ "$dir" = adapters/omp ]; then
      # OMP 18.2.3's @oh-my-pi/pi-natives names optional platform packages
      # the registry does not have (only linux-x64 exists at 18.2.3, seen
      # 2026-12-01), so its lock cannot list them and `npm ci` refuses the
      # lock as out of sync. `npm install --no-save` installs exactly the
      # locked versions and leaves the lock as it is.
      npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error
    else
      npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
    fi
  fi
done

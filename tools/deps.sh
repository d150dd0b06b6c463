#!/bin/sh
# Installs the Debian packages animkit needs, when they are missing.
# Usage: tools/deps.sh PACKAGE...   (called by `make deps`)
missing=""
for p in "$@"; do
  # Node.js may come from another build that bundles npm: the commands are what matter.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done

# The locale test writes files under a comma-decimal locale: generate de_DE.UTF-8 once.
need_locale() {
  command -v localedef >/dev/null 2>&1 || return 1
  locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$' && return 1
  return 0
}
if [ -z "$missing" ] && ! need_locale; then exit 0; fi
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "animkit: not root and no sudo; please install:$missing" >&2
  exit 1
fi
if need_locale; then
  echo "animkit: generating the de_DE.UTF-8 locale (for the locale test)"
  $SUDO localedef -i de_DE -f UTF-8 de_DE.UTF-8 || echo "animkit: localedef failed; the locale test will be skipped" >&2
fi
[ -z "$missing" ] && exit 0
echo "animkit: installing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
$SUDO apt-get install -y -qq --no-install-recommends $missing || {
  echo "animkit: apt-get could not install:$missing" >&2
  exit 1
}
if need_locale; then
  $SUDO localedef -i de_DE -f UTF-8 de_DE.UTF-8 || echo "animkit: localedef failed; the locale test will be skipped" >&2
fi

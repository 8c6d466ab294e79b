#!/bin/sh
# The formula oracle and render_range's dependencies, as `make oracle-deps` installs them:
# LibreOffice 25.2 or newer headless (libreoffice-calc-nogui, libreoffice-draw-nogui for the
# image export filters render_range needs) with Debian's python3-uno, and fonts that cover
# Chinese, Japanese, Korean and emoji (fonts-noto-cjk, fonts-noto-color-emoji), so renders
# draw glyphs instead of boxes.
#
# Nothing happens when all of it is already there. Otherwise, as root on Debian, apt-get
# installs it: on bookworm (12), whose own LibreOffice is 7.4, from bookworm-backports, a
# suite added to apt's sources as a deb822 file beside the machine's own (an older
# LibreOffice already installed is upgraded); on later releases from the release itself.
# Anywhere else it says what is missing; the oracle suites then skip, or run on what is there.
set -u

LO_MIN=25.2
LO_PACKAGES="libreoffice-calc-nogui libreoffice-draw-nogui python3-uno"
FONT_PACKAGES="fonts-noto-cjk fonts-noto-color-emoji"
GRAPHICFILTER=/usr/lib/libreoffice/share/registry/graphicfilter.xcd
BACKPORTS_SOURCES=/etc/apt/sources.list.d/registry-sidecar-backports.sources
LOG=${ORACLE_DEPS_LOG:-/tmp/registry-sidecar-oracle-deps.log}

# lo_version prints the installed LibreOffice's major.minor (e.g. 25.2), or nothing.
lo_version() {
	command -v soffice >/dev/null 2>&1 || return 0
	soffice --version 2>/dev/null | sed -n 's/^LibreOffice \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n 1
}

# at_least A B: version A (major.minor) is B or newer.
at_least() {
	[ -n "$1" ] || return 1
	awk -v a="$1" -v b="$2" 'BEGIN {
		split(a, x, "."); split(b, y, ".")
		exit !((x[1] + 0 > y[1] + 0) || (x[1] + 0 == y[1] + 0 && x[2] + 0 >= y[2] + 0))
	}'
}

# missing prints one line per thing that is missing, nothing when all is there.
missing() {
	v=$(lo_version)
	if [ -z "$v" ]; then
		echo "LibreOffice (soffice)"
	elif ! at_least "$v" "$LO_MIN"; then
		echo "LibreOffice $LO_MIN or newer (found $v)"
	fi
	/usr/bin/python3 -c 'import uno' >/dev/null 2>&1 || echo "python3-uno"
	[ -e "$GRAPHICFILTER" ] || echo "LibreOffice's image export filters (libreoffice-draw-nogui)"
	if command -v fc-list >/dev/null 2>&1; then
		for lang in zh-cn ja ko; do
			[ -n "$(fc-list ":lang=$lang" family 2>/dev/null)" ] || echo "a font for $lang (fonts-noto-cjk)"
		done
		[ -n "$(fc-list ':charset=1f9d1' family 2>/dev/null)" ] || echo "an emoji font (fonts-noto-color-emoji)"
	else
		echo "fontconfig (fc-list)"
	fi
}

# debian_uri prints the Debian archive the machine's own sources name, or the default one.
debian_uri() {
	uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\/\{0,1\}\)[[:space:]]*$/\1/p' | head -n 1)
	echo "${uri:-http://deb.debian.org/debian}"
}

# add_backports makes apt see bookworm-backports, unless some source already names it.
add_backports() {
	if grep -rqs '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 0
	fi
	cat >"$BACKPORTS_SOURCES" <<EOF
Types: deb
URIs: $(debian_uri)
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}

install_packages() {
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	target=
	if [ "$codename" = bookworm ]; then
		add_backports || return 1
		target="-t bookworm-backports"
	fi
	apt-get update -qq || return 1
	# shellcheck disable=SC2086 # the package lists and target are word lists
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $target \
		$LO_PACKAGES $FONT_PACKAGES
}

need=$(missing)
[ -z "$need" ] && exit 0
echo "oracle-deps: missing: $(echo "$need" | paste -sd ';' - | sed 's/;/; /g')"
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "oracle-deps: not root or no apt-get; the oracle and render suites skip or run on what is there"
	exit 0
fi
echo "oracle-deps: installing LibreOffice $LO_MIN ($LO_PACKAGES) and $FONT_PACKAGES (log: $LOG)"
start=$(date +%s)
if ! install_packages >"$LOG" 2>&1; then
	echo "oracle-deps: apt-get failed (see $LOG); the oracle and render suites skip or run on what is there"
	exit 0
fi
need=$(missing)
if [ -n "$need" ]; then
	echo "oracle-deps: still missing after apt-get: $(echo "$need" | paste -sd ';' - | sed 's/;/; /g') (see $LOG)"
	exit 0
fi
echo "oracle-deps: LibreOffice $(lo_version) and the fonts are installed ($(($(date +%s) - start))s)"
